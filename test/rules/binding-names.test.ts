// The one test that spells the binding names (the CLI contract's) literally: the webhook
// events, the output formats, the MCP tools and the sandbox's actions. Every other test reads
// these lists from the code's own tables (EVENT_NAMES, OUTPUT_FORMATS, TOOL_NAMES,
// SANDBOX_ACTIONS), so a row deleted or renamed there would pass them all: it is noticed here.
// A row added is allowed (the contract may grow); it is then tested through the tables.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { EVENT_NAMES } from '../../src/api/types.js';
import { NO_CSV, OUTPUT_FORMATS, TEXT_ONLY, TEXT_OR_JSON } from '../../src/output/formats.js';
import { TOOL_NAMES } from '../../src/mcp/tools.js';
import { ACTION_VERBS } from '../../src/sandbox/actions.js';
import { sandbox } from '../../src/commands/sandbox/index.js';
import {
  startSandbox,
  type CancelOptions,
  type Invitee,
  type RescheduleOptions,
} from '../../src/sandbox/library.js';

describe('the binding names of the contract', () => {
  it('the webhook events, in the API order', () => {
    expect(EVENT_NAMES.slice(0, 3)).toEqual([
      'meetingScheduled',
      'meetingCancelled',
      'meetingRescheduled',
    ]);
  });

  it('the output formats, and the sets of them commands declare', () => {
    expect(OUTPUT_FORMATS).toEqual(expect.arrayContaining(['table', 'json', 'ndjson', 'csv']));
    expect(TEXT_OR_JSON).toEqual(expect.arrayContaining(['table', 'json']));
    expect(NO_CSV).toEqual(expect.arrayContaining(['table', 'json', 'ndjson']));
    expect(TEXT_ONLY).toEqual(expect.arrayContaining(['table']));
    expect([...TEXT_OR_JSON, ...NO_CSV, ...TEXT_ONLY]).not.toContain('csv');
    expect([...TEXT_OR_JSON, ...TEXT_ONLY]).not.toContain('ndjson');
    expect(TEXT_ONLY).not.toContain('json');
  });

  it('the MCP tools', () => {
    expect(TOOL_NAMES).toEqual(
      expect.arrayContaining([
        'list_meeting_types',
        'create_single_use_link',
        'list_webhooks',
        'create_webhook',
        'delete_webhook',
        'verify_webhook_signature',
        'sample_event',
      ]),
    );
  });

  it('the sandbox actions: `sched sandbox <verb>` and the library methods', async () => {
    const verbs = ['book', 'cancel', 'reschedule'];
    expect(ACTION_VERBS).toEqual(expect.arrayContaining(verbs));
    const commands = (sandbox.commands ?? []).map((c) => c.name);
    expect(commands).toEqual(expect.arrayContaining([...verbs, 'meetings', 'deliveries']));
    const sb = await startSandbox();
    try {
      for (const verb of verbs) expect(typeof sb[verb as keyof typeof sb], verb).toBe('function');
      // The signatures the contract names (checked by npm run typecheck).
      expectTypeOf(sb.book).parameters.toEqualTypeOf<[codeOrUrl: string, invitee?: Invitee]>();
      expectTypeOf(sb.cancel).parameters.toEqualTypeOf<[string, CancelOptions?]>();
      expectTypeOf(sb.reschedule).parameters.toEqualTypeOf<
        [string, string | Date, RescheduleOptions?]
      >();
    } finally {
      await sb.close();
    }
  });
});
