// The one secret policy (src/domain/webhooks/secret.ts), one row per situation of each caller:
// where a webhook secret comes from (chooseSecret) and where a generated one goes (secretGoes).
import { describe, expect, it } from 'vitest';
import {
  chooseSecret,
  secretGoes,
  type SecretAsk,
  type SecretOut,
} from '../../../src/domain/webhooks/secret.js';
import { UsageError } from '../../../src/errors.js';

const ENV = { SCHED_WEBHOOK_SECRET: 'from-env' };
const CI = { CI: 'true' };
const TERMINAL = { terminal: true, env: {} };
const CI_LOG = { terminal: false, env: CI };
const GIVEN_ONLY =
  'is for a generated secret; --secret, --secret-stdin and --no-secret generate none';
const CI_REFUSAL =
  'in CI a generated signing secret would be printed into the job log; nothing was created';

interface Row {
  ask: SecretAsk;
  env?: Record<string, string>;
  /** What chooseSecret returns, or the message it throws. */
  choice: object | string;
  out?: SecretOut;
  /** What secretGoes returns, or the message it throws. */
  goes?: object | string;
}

const ROWS: Record<string, Row> = {
  // webhooks add
  'add --secret s': {
    ask: { flag: 's', generate: true },
    env: ENV,
    choice: { kind: 'given', secret: 's', from: 'flag' },
    out: TERMINAL,
    goes: { stdout: false },
  },
  'add --secret ""': { ask: { flag: '', generate: true }, choice: '--secret is empty' },
  'add --secret-stdin': {
    ask: { stdin: true, generate: true },
    env: ENV,
    choice: { kind: 'stdin' },
  },
  'add --no-secret': {
    ask: { flag: false, generate: true },
    env: ENV,
    choice: { kind: 'none', from: 'flag' },
    out: CI_LOG,
    goes: { stdout: false },
  },
  'add, SCHED_WEBHOOK_SECRET set': {
    ask: { flag: true, generate: true },
    env: ENV,
    choice: { kind: 'given', secret: 'from-env', from: 'env' },
    out: CI_LOG,
    goes: { stdout: false },
  },
  'add, SCHED_WEBHOOK_SECRET empty': {
    ask: { generate: true },
    env: { SCHED_WEBHOOK_SECRET: '' },
    choice: { kind: 'generate' },
  },
  'add, nothing given: generated, on stdout': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: TERMINAL,
    goes: { stdout: true },
  },
  'add in CI, stdout a log': {
    ask: { generate: true },
    env: CI,
    choice: { kind: 'generate' },
    out: CI_LOG,
    goes: CI_REFUSAL,
  },
  'add in CI, CI=false': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: { terminal: false, env: { CI: 'false' } },
    goes: { stdout: true },
  },
  'add in CI, stdout a terminal': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: { terminal: true, env: CI },
    goes: { stdout: true },
  },
  'add --secret-out f': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: { ...CI_LOG, file: 'f' },
    goes: { file: 'f', stdout: false },
  },
  'add --secret-out f --print-secret': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: { ...CI_LOG, file: 'f', print: true },
    goes: { file: 'f', stdout: true },
  },
  'add --print-secret in CI': {
    ask: { generate: true },
    choice: { kind: 'generate' },
    out: { ...CI_LOG, print: true },
    goes: { file: undefined, stdout: true },
  },
  'add --secret s --secret-out f': {
    ask: { flag: 's' },
    choice: { kind: 'given', secret: 's', from: 'flag' },
    out: { ...TERMINAL, file: 'f' },
    goes: `--secret-out ${GIVEN_ONLY}`,
  },
  'add --no-secret --print-secret': {
    ask: { flag: false },
    choice: { kind: 'none', from: 'flag' },
    out: { ...TERMINAL, print: true },
    goes: `--print-secret ${GIVEN_ONLY}`,
  },
  'add --secret-stdin --print-secret': {
    ask: { stdin: true },
    choice: { kind: 'stdin' },
    out: { ...TERMINAL, print: true },
    goes: `--print-secret ${GIVEN_ONLY}`,
  },
  'add, SCHED_WEBHOOK_SECRET set, --secret-out f': {
    ask: { generate: true },
    env: ENV,
    choice: { kind: 'given', secret: 'from-env', from: 'env' },
    out: { ...TERMINAL, file: 'f' },
    goes: { stdout: false, unused: '--secret-out' },
  },
  'add, a secret typed at the prompt, --secret-out f': {
    ask: {},
    choice: { kind: 'absent' },
    out: { ...TERMINAL, file: 'f' },
    goes: { stdout: false },
  },
  // webhooks listen
  'listen --secret s': {
    ask: { flag: 's' },
    env: ENV,
    choice: { kind: 'given', secret: 's', from: 'flag' },
  },
  'listen, SCHED_WEBHOOK_SECRET set': {
    ask: {},
    env: ENV,
    choice: { kind: 'given', secret: 'from-env', from: 'env' },
  },
  'listen, nothing given: unchecked': { ask: {}, choice: { kind: 'absent' } },
  'listen --register: generated, kept in the process (even in CI)': {
    ask: { generate: true },
    env: CI,
    choice: { kind: 'generate' },
    out: { ...CI_LOG, needs: 'nobody' },
    goes: { stdout: false },
  },
  'listen --register --forward-to: shown to the app (even in CI)': {
    ask: { generate: true },
    env: CI,
    choice: { kind: 'generate' },
    out: { ...CI_LOG, needs: 'app' },
    goes: { stdout: true },
  },
  // sig sign/verify, events send (input.ts's resolveSecret)
  'sig --secret s': {
    ask: { flag: 's' },
    env: ENV,
    choice: { kind: 'given', secret: 's', from: 'flag' },
  },
  'sig, SCHED_WEBHOOK_SECRET set': {
    ask: {},
    env: ENV,
    choice: { kind: 'given', secret: 'from-env', from: 'env' },
  },
  // sched mcp's create_webhook: only the variable named, or unsigned; never generated
  'mcp unsigned': {
    ask: { flag: false, variable: null },
    env: ENV,
    choice: { kind: 'none', from: 'flag' },
  },
  'mcp secret_env': {
    ask: { flag: true, variable: 'SCHED_WEBHOOK_SECRET_A' },
    env: { ...ENV, SCHED_WEBHOOK_SECRET_A: 'a' },
    choice: { kind: 'given', secret: 'a', from: 'env' },
  },
  'mcp secret_env unset': {
    ask: { variable: 'SCHED_WEBHOOK_SECRET_A' },
    env: ENV,
    choice: { kind: 'unusable', variable: 'SCHED_WEBHOOK_SECRET_A', problem: 'unset' },
  },
  'mcp secret_env empty': {
    ask: { variable: 'X' },
    env: { X: '' },
    choice: { kind: 'unusable', variable: 'X', problem: 'empty' },
  },
  'mcp secret_env not a name': {
    ask: { variable: 'a secret' },
    choice: { kind: 'unusable', variable: 'a secret', problem: 'not-a-name' },
  },
  'mcp neither: SCHED_WEBHOOK_SECRET is not read': {
    ask: { flag: true, variable: null },
    env: ENV,
    choice: { kind: 'absent' },
  },
};

function outcome(f: () => unknown): unknown {
  try {
    return f();
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return (e as UsageError).message;
  }
}

describe('the secret policy, over every caller', () => {
  it.each(Object.entries(ROWS))('%s', (_name, row) => {
    const choice = outcome(() => chooseSecret(row.ask, row.env ?? {}));
    expect(choice).toEqual(row.choice);
    if (row.out) {
      expect(outcome(() => secretGoes(choice as never, row.out!))).toEqual(row.goes);
    }
  });
});

describe('a secret the user typed at the prompt (webhooks add)', () => {
  // The prompt comes after the flags are read: what the user typed is theirs, like a secret
  // from the variable, so --secret-out/--print-secret are not refused for it.
  it.each([
    ['a typed secret, --secret-out f', { kind: 'given', secret: 't', from: 'prompt' }, 'f'],
    ['unsigned chosen at the prompt, --secret-out f', { kind: 'none', from: 'prompt' }, 'f'],
  ] as const)('%s: nothing refused, nothing printed', (_name, choice, file) => {
    expect(secretGoes(choice, { ...TERMINAL, file })).toEqual({ stdout: false });
  });
});

describe('each refusal says what to do', () => {
  function hintOf(f: () => unknown): string | undefined {
    try {
      f();
    } catch (e) {
      expect(e).toBeInstanceOf(UsageError);
      return (e as UsageError).hint;
    }
    throw new Error('not refused');
  }

  it('a destination flag with a secret the user gave', () => {
    expect(
      hintOf(() =>
        secretGoes({ kind: 'given', secret: 's', from: 'flag' }, { ...TERMINAL, file: 'f' }),
      ),
    ).toBe('drop --secret-out, or drop the secret option to have one generated');
  });

  it('a generated secret bound for a CI log', () => {
    expect(hintOf(() => secretGoes({ kind: 'generate' }, CI_LOG))).toBe(
      'say where it goes: --secret-out <file> (written 0600), or --print-secret; ' +
        'or give your own with SCHED_WEBHOOK_SECRET or --secret-stdin',
    );
  });
});
