// An unset secret variable spelled nearly like a set one: every caller that takes a secret by
// the name of a variable (envSecret) says it through one wording (envSecretProblem), naming the
// set variable and never its value.
import { describe, expect, it } from 'vitest';
import { envSecretProblem } from '../../../src/domain/webhooks/secret.js';
import { validateSyncDocument } from '../../../src/domain/webhooks/sync/validate.js';
import { callTool, failureText, type ToolDeps } from '../../../src/mcp/tools.js';

const VALUE = 'the-secret-value-000';

/** The line each caller writes for the variable `name`, given `env`. */
const CALLERS: Record<string, (name: string, env: Record<string, string>) => Promise<string>> = {
  'webhooks sync (secretEnv)': (name, env) =>
    Promise.resolve(
      validateSyncDocument(
        {
          webhooks: [{ url: 'https://x.example/h', events: ['meetingScheduled'], secretEnv: name }],
        },
        env,
      ).problems.join('\n'),
    ),
  'mcp verify_webhook_signature (secret_env)': async (name, env) => {
    const deps: ToolDeps = {
      api: () => Promise.reject(new Error('no request')),
      resolveMeetingType: () => Promise.reject(new Error('no lookup')),
      env,
      addSecrets: () => {},
      mask: () => (s) => s,
    };
    try {
      await callTool(
        'verify_webhook_signature',
        { payload: 'p', signature: 's', secret_env: name },
        { access: 'default', deps, signal: new AbortController().signal },
      );
      return '';
    } catch (e) {
      return failureText(e);
    }
  },
};

describe.each(Object.entries(CALLERS))('%s', (_name, line) => {
  it('a near spelling of a set variable: did you mean it (its name only)', async () => {
    const text = await line('SCHED_WEBHOOK_SECRET_ORDRS', { SCHED_WEBHOOK_SECRET_ORDERS: VALUE });
    expect(text).toContain(
      'environment variable SCHED_WEBHOOK_SECRET_ORDRS is not set (did you mean "SCHED_WEBHOOK_SECRET_ORDERS"?)',
    );
    expect(text).not.toContain(VALUE);
  });

  it('nothing near: just not set; an empty near one is not suggested', async () => {
    const text = await line('SCHED_WEBHOOK_SECRET_ORDRS', {
      SCHED_WEBHOOK_SECRET_ORDERS: '',
      OTHER: VALUE,
    });
    expect(text).toMatch(/environment variable SCHED_WEBHOOK_SECRET_ORDRS is not set(?! \()/);
  });
});

it('the sync file of the issue: CHANGES_WEBHOOK_SECRT with CHANGES_WEBHOOK_SECRET set', () => {
  const v = validateSyncDocument(
    { webhooks: [{ url: 'https://x.example/h', secretEnv: 'CHANGES_WEBHOOK_SECRT' }] },
    { CHANGES_WEBHOOK_SECRET: VALUE, PATH: '/usr/bin' },
  );
  expect(v.problems).toEqual([
    'webhooks[0].secretEnv: environment variable CHANGES_WEBHOOK_SECRT is not set (did you mean "CHANGES_WEBHOOK_SECRET"?)',
  ]);
});

it('the wording of each problem', () => {
  expect(envSecretProblem('A', 'empty', { A: '' })).toBe('empty');
  expect(envSecretProblem('a-b', 'not-a-name', {})).toBe('not a variable name');
  expect(envSecretProblem('A', 'unset', {})).toBe('not set');
});

it('sched mcp never names a near variable outside SCHED_WEBHOOK_SECRET*, not even its name', async () => {
  // A model must not learn the names of the server's other variables by misspelling one.
  const text = await CALLERS['mcp verify_webhook_signature (secret_env)']!(
    'SCHED_WEBHOOK_SECRET_ORDRS',
    { SCHED_WEBHOOK_SECRT_ORDRS: VALUE },
  );
  expect(text).toMatch(/environment variable SCHED_WEBHOOK_SECRET_ORDRS is not set(?! \()/);
  expect(text).not.toContain('SCHED_WEBHOOK_SECRT_ORDRS');
});
