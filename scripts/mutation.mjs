// `npm run mutation`: Stryker over the modules where a silent bug costs users most, in groups,
// each group with its own set of tests (its Stryker config names them), one group after the
// other. A group's tests are the ones that reach its modules and are fast enough to be run once
// per mutant: the exchange (the one HTTP client) is reached by every network test, so it is
// measured against its own unit tests rather than the whole in-process set, which took ~4 hours.
//
//   npm run mutation                                   # every group
//   npm run mutation -- --group exchange               # one group
//   npm run mutation -- --mutate src/api/exchange.ts   # one module (the group that holds it)
//
// Every other option is Stryker's, given to each group's run (--force, --concurrency 1,
// --dryRunOnly…). Each group keeps its own incremental file and report (see the configs).
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const GROUPS = [
  { name: 'core', config: 'scripts/stryker.config.mjs' },
  { name: 'exchange', config: 'scripts/stryker.exchange.config.mjs' },
];

function fail(message) {
  process.stderr.write(`error: ${message}\n`);
  process.exit(2);
}

/** Takes `--name value` or `--name=value` (or `-m value` for --mutate) out of args. */
function takeOption(args, name, short) {
  const values = [];
  const rest = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === `--${name}` || (short && a === short)) {
      if (i + 1 >= args.length) fail(`--${name} needs a value`);
      values.push(args[++i]);
    } else if (a.startsWith(`--${name}=`)) values.push(a.slice(name.length + 3));
    else rest.push(a);
  }
  return { values, rest };
}

const groups = await Promise.all(
  GROUPS.map(async (g) => ({
    ...g,
    mutate: (await import(path.join(root, g.config))).default.mutate,
  })),
);

let args = process.argv.slice(2);
const group = takeOption(args, 'group');
args = group.rest;
const mutate = takeOption(args, 'mutate', '-m');
args = mutate.rest;

// Which groups run, and (with --mutate) which of their modules.
let runs = groups.map((g) => ({ ...g, only: undefined }));
if (group.values.length > 0) {
  for (const name of group.values)
    if (!groups.some((g) => g.name === name))
      fail(`no mutation group "${name}": use one of ${groups.map((g) => g.name).join(', ')}`);
  runs = runs.filter((g) => group.values.includes(g.name));
}
if (mutate.values.length > 0) {
  const specs = mutate.values.flatMap((v) => v.split(',')).filter((s) => s !== '');
  const byGroup = new Map();
  for (const spec of specs) {
    // A module may carry a line range (src/x.ts:10-20), as Stryker allows.
    const file = spec.replace(/:\d+(:\d+)?-\d+(:\d+)?$/, '');
    const g = runs.find((r) => r.mutate.includes(file));
    if (!g)
      fail(
        `${file} is not a module of the mutation run${group.values.length > 0 ? ' in that group' : ''}: ` +
          'name one listed in "mutate" in scripts/stryker*.config.mjs',
      );
    byGroup.set(g, [...(byGroup.get(g) ?? []), spec]);
  }
  runs = [...byGroup].map(([g, only]) => ({ ...g, only }));
}

const stryker = path.join(root, 'node_modules', '.bin', 'stryker');
for (const g of runs) {
  const extra = g.only ? ['--mutate', g.only.join(',')] : [];
  process.stderr.write(`\n== mutation group "${g.name}" (${g.config}) ==\n`);
  const r = spawnSync(stryker, ['run', g.config, ...extra, ...args], {
    cwd: root,
    stdio: 'inherit',
  });
  if (r.error) fail(`cannot run Stryker: ${r.error.message}`);
  if (r.status !== 0) process.exit(r.status ?? 1);
}
