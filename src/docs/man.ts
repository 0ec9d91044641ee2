// sched.1: the man page (roff, man macros), rendered from the same reference as docs/.
// Generated: run `node scripts/gen-docs.mjs` after changing a command definition.
import type { RefOption, Reference } from './model.js';
import { COMMAND_NAMES } from '../names.js';

/** Text made safe for roff: backslashes, dashes (so they copy as ASCII) and leading dots. */
function esc(s: string): string {
  return s
    .replace(/\\/g, '\\e')
    .replace(/-/g, '\\-')
    .replace(/^([.'])/gm, '\\&$1');
}

function options(list: readonly RefOption[]): string[] {
  return list.flatMap((o) => {
    const notes = [
      o.required ? 'Required.' : '',
      o.repeatable && !o.description.includes('repeatable') ? 'Repeatable.' : '',
      o.default === undefined ? '' : `Default: ${o.default}.`,
    ].filter(Boolean);
    const text = notes.length > 0 ? `${o.description}. ${notes.join(' ')}` : o.description;
    return ['.TP', `.B ${esc(o.flags)}`, esc(text)];
  });
}

function example(lines: readonly string[]): string[] {
  return [
    '.PP',
    '.RS 4',
    '.nf',
    ...lines.map((l) => esc(l.startsWith('#') ? l : `$ ${l}`)),
    '.fi',
    '.RE',
  ];
}

export function manPage(ref: Reference): string {
  const out: string[] = [
    '.\\" Generated from the command definitions by scripts/gen-docs.mjs; do not edit.',
    '.TH SCHED 1 "" "sched" "User Commands"',
    '.SH NAME',
    `${COMMAND_NAMES.join(', ')} \\- ${esc(ref.description)}`,
    '.SH SYNOPSIS',
    '.B sched',
    '[\\fIglobal options\\fR] \\fIcommand\\fR [\\fIarguments\\fR] [\\fIoptions\\fR]',
    '.SH DESCRIPTION',
    esc(
      'sched manages meeting types, single-use booking links and webhook endpoints of a ' +
        'scheduling service, computes and verifies webhook signatures, and runs a local ' +
        'sandbox of the whole service. Data goes to stdout (tables on a terminal; JSON, ' +
        'NDJSON or CSV with --json or --output), messages to stderr.',
    ),
    '.PP',
    esc(
      `${COMMAND_NAMES[1]} is the same program under a second name. zsh has a builtin called ` +
        `sched (its zsh/sched module) that runs instead of ours; type ${COMMAND_NAMES[1]}, or ` +
        'give the name back with "disable sched 2>/dev/null" in ~/.zshrc.',
    ),
    '.SH GLOBAL OPTIONS',
    'Accepted before or after any command.',
    ...options(ref.globalOptions),
    '.SH COMMANDS',
  ];
  for (const c of ref.commands) {
    out.push('.SS ' + `"${esc(c.usage)}"`, esc(c.description) + '.');
    if (c.aliases.length > 0) {
      out.push(
        '.PP',
        esc(
          `Alias: ${c.aliases.map((a) => `sched ${[...c.path.slice(0, -1), a].join(' ')}`).join(', ')}.`,
        ),
      );
    }
    for (const a of c.args) out.push('.TP', `.I ${esc(a.usage)}`, esc(a.description));
    for (const l of options(c.options.filter((o) => o.flags !== '-h, --help'))) out.push(l);
    if (c.formats.length > 0) out.push('.PP', esc(`Output formats: ${c.formats.join(', ')}.`));
    if (c.json) out.push('.PP', `With \\fB\\-\\-json\\fR: ${esc(c.json)}`);
    if (c.exitCodes.length > 0) {
      out.push(
        '.PP',
        'Exit status: ' + c.exitCodes.map(([code, m]) => `${code} ${esc(m)}`).join('; ') + '.',
      );
    }
    if (c.examples.length > 0) for (const l of example(c.examples)) out.push(l);
  }
  out.push('.SH ENVIRONMENT');
  for (const [name, meaning] of ref.environment) out.push('.TP', `.B ${esc(name)}`, esc(meaning));
  out.push('.SH EXIT STATUS');
  for (const [code, meaning] of ref.exitCodes) out.push('.TP', `.B ${code}`, esc(meaning));
  out.push(
    '.SH SEE ALSO',
    esc(
      `sched --help, sched help <command>, ${ref.helpTopics.map(([k]) => `sched help ${k}`).join(', ')}; ` +
        'the command reference in the docs/ folder of the source repository.',
    ),
  );
  return out.join('\n') + '\n';
}
