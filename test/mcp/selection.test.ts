// What a `sched mcp` server serves (src/mcp/selection.ts): the level from the flags or
// SCHED_MCP_LEVEL, and the tools of `--tools` checked against the names and the level. Every
// refusal is a usage error (exit 2) whose hint is a change the user can make. (Over real stdio:
// test/e2e/mcp-tools-level.test.ts.)
import { describe, expect, it } from 'vitest';
import { levelOf, notSelected, selectTools, type Level } from '../../src/mcp/selection.js';
import { ExitCode, isSchedError } from '../../src/errors.js';

const fails = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    if (!isSchedError(e)) throw e;
    return { code: e.exitCode, message: e.message, hint: e.hint };
  }
  throw new Error('did not fail');
};

describe('levelOf', () => {
  it.each([
    [{ readOnly: true as const }, { SCHED_MCP_LEVEL: 'allow-write' }, 'read-only', '--read-only'],
    [{ allowWrite: true as const }, { SCHED_MCP_LEVEL: 'read-only' }, 'write', '--allow-write'],
    [{}, { SCHED_MCP_LEVEL: 'allow-write' }, 'write', 'SCHED_MCP_LEVEL=allow-write'],
    [{}, { SCHED_MCP_LEVEL: ' read-only ' }, 'read-only', 'SCHED_MCP_LEVEL=read-only'],
    [{}, { SCHED_MCP_LEVEL: 'default' }, 'default', 'SCHED_MCP_LEVEL=default'],
    [{}, { SCHED_MCP_LEVEL: '' }, 'default', undefined],
    [{}, {}, 'default', undefined],
  ])('%j with %j: %s', (flags, env, access, source) => {
    expect(levelOf(flags, env)).toEqual({ access, source });
  });

  it.each(['write', 'constructor', 'toString', 'READ-ONLY'])(
    'SCHED_MCP_LEVEL=%s is a usage error naming the values',
    (v) => {
      const e = fails(() => levelOf({}, { SCHED_MCP_LEVEL: v }));
      expect(e.code).toBe(ExitCode.usage);
      expect(e.message).toMatch(new RegExp(`^SCHED_MCP_LEVEL="${v}" is not a level`));
      expect(e.hint).toBe(
        'set it to one of read-only, default, allow-write (or unset it: default)',
      );
    },
  );
});

const level = (access: Level['access'], source?: string): Level => ({ access, source });

describe('selectTools', () => {
  it('none given: every tool of the level (undefined); names kept in a set', () => {
    expect(selectTools(undefined, level('default'))).toBeUndefined();
    expect([...selectTools(['sample_event', 'sample_event'], level('read-only'))!]).toEqual([
      'sample_event',
    ]);
  });

  it.each([
    [
      'create_webhook',
      level('default'),
      'creating and deleting webhooks needs --allow-write',
      'add --allow-write',
    ],
    [
      'delete_webhook',
      level('read-only', '--read-only'),
      'creating and deleting webhooks needs --allow-write (this server: --read-only)',
      'give --allow-write instead of --read-only',
    ],
    [
      'create_webhook',
      level('read-only', 'SCHED_MCP_LEVEL=read-only'),
      'creating and deleting webhooks needs --allow-write (this server: SCHED_MCP_LEVEL=read-only)',
      'add --allow-write',
    ],
    [
      'create_single_use_link',
      level('read-only', '--read-only'),
      'minting links is not allowed with --read-only (this server: --read-only)',
      'drop --read-only',
    ],
    [
      'create_single_use_link',
      level('read-only', 'SCHED_MCP_LEVEL=read-only'),
      'minting links is not allowed with --read-only (this server: SCHED_MCP_LEVEL=read-only)',
      'unset SCHED_MCP_LEVEL',
    ],
  ])('%s at %j: refused with a fix', (name, lvl, why, fix) => {
    const e = fails(() => selectTools(['list_webhooks', name], lvl));
    expect(e.code).toBe(ExitCode.usage);
    expect(e.message).toBe(`--tools ${name}: ${why}`);
    expect(e.hint).toBe(`${fix}, or leave ${name} out of --tools`);
  });

  it('an unknown name: did you mean, and the list of tools', () => {
    const e = fails(() => selectTools(['list_webhook'], level('write')));
    expect(e.message).toBe('--tools: unknown tool "list_webhook" (did you mean "list_webhooks"?)');
    expect(e.hint).toBe(
      'the tools are list_meeting_types, create_single_use_link, list_webhooks, create_webhook, delete_webhook, verify_webhook_signature, sample_event',
    );
    expect(fails(() => selectTools(['zzz'], level('write'))).message).toBe(
      '--tools: unknown tool "zzz"',
    );
    expect(fails(() => selectTools([], level('write')))).toEqual({
      code: ExitCode.usage,
      message: '--tools names no tool',
      hint: 'give a comma-separated list of tools: list_meeting_types, create_single_use_link, list_webhooks, create_webhook, delete_webhook, verify_webhook_signature, sample_event',
    });
  });
});

describe('notSelected', () => {
  const chosen = selectTools(['sample_event', 'list_webhooks'], level('default'))!;
  it('refuses a known tool left out, naming the selection', () => {
    const e = notSelected('create_single_use_link', chosen)!;
    expect(e.exitCode).toBe(ExitCode.usage);
    expect(e.message).toBe(
      'create_single_use_link is not served: the server was started with --tools sample_event,list_webhooks',
    );
    expect(e.hint).toBe('restart it with create_single_use_link added to --tools');
  });
  it('leaves a chosen tool, and an unknown name (the tools refusal says it), alone', () => {
    expect(notSelected('sample_event', chosen)).toBeUndefined();
    expect(notSelected('nope', chosen)).toBeUndefined();
  });
});
