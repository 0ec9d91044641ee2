// Two traps of an assistant's session (issue 40): verifying a signature with no secret named and
// none in the default variable says that no secret was given; links minted by `mcp --sandbox`
// say they live only as long as that server.
import { afterEach, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import { connectMcp, type McpHarness } from '../helpers/mcp.js';
import { useConfigDir } from '../helpers/config-dir.js';
import { SANDBOX_LINKS_NOTE } from '../../src/mcp/tools.js';
import { startTestSandbox } from '../helpers/sandbox.js';

const config = useConfigDir('sched-mcp-traps-');
const open: McpHarness[] = [];
afterEach(async () => {
  for (const h of open.splice(0)) await h.close();
});

async function connect(env: Record<string, string>, sandbox?: true): Promise<McpHarness> {
  const h = await connectMcp(
    { readOnly: undefined, allowWrite: undefined, sandbox },
    { SCHED_CONFIG_DIR: config.path, ...env },
  );
  open.push(h);
  return h;
}

const PAYLOAD = '{"event":"meetingScheduled"}';
const sign = (secret: string) => createHmac('sha256', secret).update(PAYLOAD).digest('base64');

describe('verify_webhook_signature without secret_env', () => {
  it('with SCHED_WEBHOOK_SECRET unset: says no secret was given, and how to give one', async () => {
    const h = await connect({});
    const r = await h.call('verify_webhook_signature', {
      payload: PAYLOAD,
      signature: sign('whatever-secret'),
    });
    expect(r.isError).toBe(true);
    expect(r.text).toBe(
      'error: no secret was given: secret_env was not passed, and SCHED_WEBHOOK_SECRET (the default) is not set in the server process\n' +
        `hint: pass secret_env, the name of the server's variable that holds the webhook's secret (e.g. SCHED_WEBHOOK_SECRET_ORDERS), or set SCHED_WEBHOOK_SECRET in the "env" of the server's configuration and restart it`,
    );
  });

  it('with SCHED_WEBHOOK_SECRET set: it is the secret used', async () => {
    const h = await connect({ SCHED_WEBHOOK_SECRET: 'the-default-secret-123' });
    const r = await h.call('verify_webhook_signature', {
      payload: PAYLOAD,
      signature: sign('the-default-secret-123'),
    });
    expect(r.isError, r.text).toBe(false);
    expect(r.structured).toMatchObject({ valid: true });
  });

  it('a secret_env named but unset still names that variable', async () => {
    const h = await connect({});
    const r = await h.call('verify_webhook_signature', {
      payload: PAYLOAD,
      signature: sign('x'),
      secret_env: 'SCHED_WEBHOOK_SECRET_ORDERS',
    });
    expect(r.text).toMatch(
      /^error: secret_env: environment variable SCHED_WEBHOOK_SECRET_ORDERS is not set in the server process\n/,
    );
  });
});

describe('create_single_use_link under mcp --sandbox', () => {
  it('says the links live only as long as the server; against an account it does not', async () => {
    const h = await connect({}, true);
    const r = await h.call('create_single_use_link', { meeting_type: 'intro-call', count: 2 });
    expect(r.isError, r.text).toBe(false);
    const lines = r.text.split('\n');
    expect(lines).toHaveLength(4);
    expect(lines[3]).toBe(SANDBOX_LINKS_NOTE);
    expect(SANDBOX_LINKS_NOTE).toMatch(/live only as long as this `sched mcp --sandbox` server/);
    // The structured result is the links alone, as without --sandbox.
    expect(Object.keys(r.structured ?? {}).sort()).toEqual([
      'links',
      'meeting_type',
      'meeting_type_uuid',
    ]);

    const sb = await startTestSandbox();
    try {
      const account = await connect(sb.env);
      const real = await account.call('create_single_use_link', { meeting_type: 'intro-call' });
      expect(real.isError, real.text).toBe(false);
      expect(real.text).not.toContain('live only as long');
      expect(real.text.split('\n')).toHaveLength(2);
    } finally {
      await sb.close();
    }
  });
});
