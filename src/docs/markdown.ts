// docs/: the command reference as markdown, one page per command (as gh publishes its manual),
// an index, the environment and the exit codes. Generated: edit the command definitions in
// src/commands/**/index.ts, then run `node scripts/gen-docs.mjs`.
import type { RefCommand, RefOption, Reference } from './model.js';

const GENERATED =
  '<!-- Generated from the command definitions by scripts/gen-docs.mjs; do not edit. -->\n\n';

/** The file a command's page lives in, relative to docs/. */
export function commandPage(path: readonly string[]): string {
  return `commands/sched-${path.join('-')}.md`;
}

function cell(s: string): string {
  return s.replace(/\|/g, '\\|');
}

function optionTable(options: readonly RefOption[]): string {
  const rows = options.map((o) => {
    const notes = [
      o.required ? 'required' : '',
      o.repeatable && !o.description.includes('repeatable') ? 'repeatable' : '',
    ]
      .filter(Boolean)
      .join(', ');
    const desc = notes ? `${o.description} (${notes})` : o.description;
    return `| \`${cell(o.flags)}\` | ${cell(desc)} | ${o.default === undefined ? '' : `\`${cell(o.default)}\``} |`;
  });
  return ['| Option | Description | Default |', '| --- | --- | --- |', ...rows].join('\n') + '\n';
}

function examplesBlock(lines: readonly string[]): string {
  return '```sh\n' + lines.map((l) => (l.startsWith('#') ? l : `$ ${l}`)).join('\n') + '\n```\n';
}

function commandMarkdown(c: RefCommand): string {
  const name = `sched ${c.path.join(' ')}`;
  const up = '../';
  const parts = [`${GENERATED}# ${name}\n\n${c.description}\n`];
  parts.push(`## Usage\n\n\`\`\`\n${c.usage}\n\`\`\`\n`);
  if (c.aliases.length > 0) {
    parts.push(
      `Aliases: ${c.aliases.map((a) => `\`sched ${[...c.path.slice(0, -1), a].join(' ')}\``).join(', ')}\n`,
    );
  }
  if (c.args.length > 0) {
    parts.push(
      '## Arguments\n\n| Argument | Description |\n| --- | --- |\n' +
        c.args.map((a) => `| \`${cell(a.usage)}\` | ${cell(a.description)} |`).join('\n') +
        '\n',
    );
  }
  const own = c.options.filter((o) => o.flags !== '-h, --help');
  if (own.length > 0) parts.push(`## Options\n\n${optionTable(own)}`);
  parts.push(`The [global options](${up}README.md#global-options) apply too.\n`);
  if (c.subcommands.length > 0) {
    parts.push(
      '## Commands\n\n' +
        c.subcommands
          .map((p) => `- [\`sched ${p.join(' ')}\`](${up}${commandPage(p)})`)
          .join('\n') +
        '\n',
    );
  }
  if (c.formats.length > 0) {
    parts.push(
      `## Output formats\n\n${c.formats.map((f) => `\`${f}\``).join(', ')} (\`-o\`; \`--json\` is \`-o json\`). Any other is a usage error (exit 2).\n`,
    );
  }
  if (c.json) parts.push(`## JSON output\n\nWith \`--json\`: ${c.json}\n`);
  if (c.exitCodes.length > 0) {
    parts.push(
      '## Exit codes\n\n' +
        c.exitCodes.map(([code, meaning]) => `- \`${code}\`: ${meaning}`).join('\n') +
        `\n\nOtherwise as listed in [exit codes](${up}exit-codes.md).\n`,
    );
  } else if (c.subcommands.length === 0) {
    parts.push(`## Exit codes\n\nAs listed in [exit codes](${up}exit-codes.md).\n`);
  }
  if (c.examples.length > 0) parts.push(`## Examples\n\n${examplesBlock(c.examples)}`);
  return parts.join('\n');
}

function indexMarkdown(ref: Reference): string {
  const top = ref.commands.filter((c) => c.path.length === 1);
  return [
    `${GENERATED}# sched command reference\n\n${ref.description}.\n`,
    '## Commands\n\n' +
      ref.commands
        .map(
          (c) =>
            `${'  '.repeat(c.path.length - 1)}- [\`sched ${c.path.join(' ')}\`](${commandPage(c.path)}): ${c.description}`,
        )
        .join('\n') +
      '\n',
    `## Global options\n\nAccepted before or after any command.\n\n${optionTable(ref.globalOptions)}`,
    '## Guides\n\n' +
      '- [Scripting](scripting.md): JSON, NDJSON, CSV, `--quiet`, piped tables, `sched api`\n' +
      '- [CI](ci.md): declarative webhooks with `sched webhooks sync`, a GitHub Actions job\n' +
      '- [Single-use links](links.md): for support staff, one or many, a pick list\n' +
      '- [Webhook development](webhooks.md): listen, forward, record and replay, signatures\n' +
      '- [The sandbox](sandbox.md): bookings, the console, faults, seeded runs, the library\n' +
      '- [Configuration](configuration.md): profiles, environment, network, shell completion\n' +
      '- [Quality](quality.md): the reliability suite, coverage, mutation testing, speed\n',
    '## More\n\n' +
      '- [Environment variables](environment.md)\n' +
      '- [Exit codes](exit-codes.md)\n' +
      `- Help on a terminal: \`sched --help\`, \`sched help <command>\`, ${ref.helpTopics.map(([k]) => `\`sched help ${k}\``).join(', ')}\n` +
      `- Top-level commands: ${top.map((c) => `\`${c.path[0]}\``).join(', ')}\n`,
  ].join('\n');
}

function environmentMarkdown(ref: Reference): string {
  return (
    `${GENERATED}# Environment variables\n\n| Variable | Meaning |\n| --- | --- |\n` +
    ref.environment.map(([n, m]) => `| \`${n}\` | ${cell(m)} |`).join('\n') +
    '\n\nA command-line flag wins over the environment, which wins over the profile.\n'
  );
}

function exitCodesMarkdown(ref: Reference): string {
  return (
    `${GENERATED}# Exit codes\n\n| Code | Meaning |\n| --- | --- |\n` +
    ref.exitCodes.map(([c, m]) => `| \`${c}\` | ${cell(m)} |`).join('\n') +
    '\n\nA declined confirmation (answering no) is not an interruption: it prints that nothing ' +
    'was done and exits 1. The long-running servers (`sched sandbox`, `sched webhooks listen`) ' +
    'end normally on Ctrl-C or SIGTERM and then exit 0 after a clean shutdown.\n\n' +
    'When stdout cannot be written (a full disk, an I/O error) the command ends with one ' +
    '`error: could not write to stdout (…)` line and exits 1, never a stack trace; the same for a ' +
    'file a flag named (`--record`, `--secret-out`) and the recording `events replay` appends its ' +
    'outcomes to. A reader that goes away (`| head -1`) ends a ' +
    'command that changed nothing quietly, exit 0. A command that changed the account stops ' +
    'starting changes at the first failed write, finishes the steps of those begun, and says ' +
    'what was done on that line, exit 1 even when the reader only left: `8 links were minted; 1 ' +
    'was written to stdout`, the links not written listed under it (`events replay` says how many ' +
    'deliveries it sent, and whose outcome was not recorded). A generated webhook secret ' +
    'never goes to stderr: when it could not be written, the new webhook is deleted and that is ' +
    'said. A note that cannot be written to stderr is dropped and never changes the exit code.\n'
  );
}

/** Every file of docs/ (path relative to docs/ -> content). */
export function markdownFiles(ref: Reference): Map<string, string> {
  const files = new Map<string, string>();
  files.set('README.md', indexMarkdown(ref));
  files.set('environment.md', environmentMarkdown(ref));
  files.set('exit-codes.md', exitCodesMarkdown(ref));
  for (const c of ref.commands) files.set(commandPage(c.path), commandMarkdown(c));
  return files;
}
