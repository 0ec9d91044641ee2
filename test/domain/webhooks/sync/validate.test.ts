import { describe, expect, it } from 'vitest';
import { validateSyncDocument } from '../../../../src/domain/webhooks/sync/validate.js';
import { urlKey } from '../../../../src/domain/webhooks/url.js';
import { EVENT_NAMES } from '../../../../src/api/types.js';

const ALLOWED = `allowed: ${EVENT_NAMES.join(', ')}`;
const env = { HOOK_SECRET: 'env-secret-value', EMPTY: '' };

describe('validateSyncDocument', () => {
  it('accepts a good file and resolves secrets from the environment', () => {
    const v = validateSyncDocument(
      {
        $schema: 'https://example.com/schema.json',
        webhooks: [
          { url: 'https://a.test/h', events: ['meetingScheduled'], secretEnv: 'HOOK_SECRET' },
          {
            url: 'http://b.test:8080/x?y=1',
            events: ['meetingCancelled', 'meetingRescheduled'],
            secretEnv: 'HOOK_SECRET',
          },
        ],
      },
      env,
    );
    expect(v.problems).toEqual([]);
    expect(v.warnings).toEqual([]);
    expect(v.entries).toEqual([
      {
        index: 0,
        url: 'https://a.test/h',
        key: 'https://a.test/h',
        events: ['meetingScheduled'],
        secret: 'env-secret-value',
        secretSource: { kind: 'env', name: 'HOOK_SECRET' },
      },
      expect.objectContaining({ index: 1, events: ['meetingCancelled', 'meetingRescheduled'] }),
    ]);
  });

  it('reports every mistake at once, each named by entry and field', () => {
    const v = validateSyncDocument(
      {
        webhoks: [],
        webhooks: [
          { url: 'https://ok.test/1', events: ['meetingScheduled'], secretEnv: 'HOOK_SECRET' },
          'not an object',
          { url: 'https://ok.test/2', events: ['meetingBooked', 7], secretEnv: 'HOOK_SECRET' },
          { events: ['meetingScheduled'], secretEnv: 'HOOK_SECRET', secret_env: 'X' },
          { url: 'ftp://files.test/x', events: 'meetingScheduled', secretEnv: 'HOOK_SECRET' },
          { url: 'https://OK.test:443/1', events: [], secretEnv: 'HOOK_SECRET', extra: 1 },
          { url: 'https://ok.test/3', secret: 's', secretEnv: 'HOOK_SECRET' },
          { url: 'https://ok.test/4', events: ['meetingScheduled'] },
          { url: 'https://ok.test/5', events: ['meetingScheduled'], secretEnv: 'NOT_SET_ANYWHERE' },
          { url: 'https://ok.test/6', events: ['meetingScheduled'], secretEnv: 'EMPTY' },
          { url: 'https://ok.test/7', events: ['meetingScheduled'], secret: 42 },
          { url: 42, events: ['meeting_scheduled', 'meetingSchedule'], secretEnv: 'bad-name' },
          { url: 'relative/path', events: ['meetingScheduled'], secret: '' },
        ],
      },
      env,
    );
    expect(v.entries).toEqual([]);
    expect(v.problems).toEqual([
      'unknown top-level key "webhoks" (did you mean "webhooks"?); allowed: webhooks',
      'webhooks[1]: expected an object with url, events and secretEnv, found a string',
      `webhooks[2].events[0]: unknown event "meetingBooked"; ${ALLOWED}`,
      'webhooks[2].events[1]: expected an event name, found a number',
      'webhooks[3]: unknown key "secret_env" (did you mean "secretEnv"?); allowed: url, events, secret, secretEnv',
      'webhooks[3].url: missing; give the absolute http(s) URL of the endpoint',
      'webhooks[4].url: must be an absolute http(s) URL without spaces; got "ftp://files.test/x"',
      'webhooks[4].events: expected an array of event names, found a string',
      'webhooks[5]: unknown key "extra"; allowed: url, events, secret, secretEnv',
      'webhooks[5].url: "https://OK.test:443/1" is already listed at webhooks[0]; list each URL once',
      // Issue 33, item 5: webhooks[6] leaves `events` out, which means every event (no problem).
      `webhooks[5].events: empty; list one or more of: ${EVENT_NAMES.join(', ')} (or leave events out for all of them)`,
      'webhooks[6]: give either secret or secretEnv, not both',
      'webhooks[7]: missing secretEnv, the name of an environment variable that holds the signing secret',
      'webhooks[8].secretEnv: environment variable NOT_SET_ANYWHERE is not set',
      'webhooks[9].secretEnv: environment variable EMPTY is empty',
      'webhooks[10].secret: expected a string, found a number',
      'webhooks[11].url: expected a string, found a number',
      `webhooks[11].events[0]: unknown event "meeting_scheduled" (did you mean "meetingScheduled"?); ${ALLOWED}`,
      `webhooks[11].events[1]: unknown event "meetingSchedule" (did you mean "meetingScheduled"?); ${ALLOWED}`,
      'webhooks[11].secretEnv: "bad-name" is not an environment variable name',
      'webhooks[12].url: must be an absolute http(s) URL without spaces; got "relative/path"',
      'webhooks[12].secret: empty; use secretEnv with a non-empty value',
    ]);
  });

  it('explains a wrong top-level shape', () => {
    expect(validateSyncDocument([{ url: 'x' }], env).problems).toEqual([
      'the file must hold an object with a "webhooks" array, found an array; wrap the list: {"webhooks": [...]}',
    ]);
    expect(validateSyncDocument('text', env).problems[0]).toMatch(/found a string$/);
    expect(validateSyncDocument(null, env).problems[0]).toMatch(/found null$/);
    expect(validateSyncDocument({}, env).problems).toEqual([
      'webhooks: missing; expected an array of {"url", "events", "secretEnv"} objects',
    ]);
    expect(validateSyncDocument({ webhooks: { url: 'x' } }, env).problems).toEqual([
      'webhooks: expected an array, found an object',
    ]);
  });

  it('collapses a repeated event with a warning', () => {
    const v = validateSyncDocument(
      {
        webhooks: [
          {
            url: 'https://a.test',
            events: ['meetingScheduled', 'meetingCancelled', 'meetingScheduled'],
            secretEnv: 'HOOK_SECRET',
          },
        ],
      },
      env,
    );
    expect(v.problems).toEqual([]);
    expect(v.entries[0]?.events).toEqual(['meetingScheduled', 'meetingCancelled']);
    expect(v.warnings).toEqual([
      'webhooks[0].events[2]: "meetingScheduled" is listed twice; using it once',
    ]);
  });

  it('accepts a literal secret with a warning that never shows it', () => {
    const v = validateSyncDocument(
      {
        webhooks: [
          { url: 'https://a.test', events: ['meetingScheduled'], secret: 'LITERAL-S3CRET' },
        ],
      },
      env,
    );
    expect(v.problems).toEqual([]);
    expect(v.entries[0]?.secret).toBe('LITERAL-S3CRET');
    expect(v.warnings).toHaveLength(1);
    expect(v.warnings[0]).toMatch(/^webhooks\[0\]\.secret: .*use secretEnv instead$/);
    expect(v.warnings.join()).not.toContain('LITERAL-S3CRET');
  });

  it('accepts an empty list (with --prune that means: delete everything)', () => {
    expect(validateSyncDocument({ webhooks: [] }, env)).toEqual({
      entries: [],
      problems: [],
      warnings: [],
      unsetSecretEnv: [],
    });
  });

  it('never puts a secret value into a message', () => {
    const v = validateSyncDocument(
      {
        webhooks: [
          { url: 'https://a.test', events: ['nope'], secretEnv: 'HOOK_SECRET' },
          { url: 'https://b.test', events: ['nope'], secret: 'LITERAL-S3CRET' },
        ],
      },
      env,
    );
    const all = [...v.problems, ...v.warnings].join('\n');
    expect(v.problems.length).toBeGreaterThan(0);
    expect(all).not.toContain('env-secret-value');
    expect(all).not.toContain('LITERAL-S3CRET');
  });
});

describe('urlKey', () => {
  it('treats spelling variants of one endpoint as one', () => {
    expect(urlKey('HTTPS://Example.COM')).toBe(urlKey('https://example.com/'));
    expect(urlKey('https://example.com:443/a')).toBe(urlKey('https://example.com/a'));
    expect(urlKey('https://example.com/a')).not.toBe(urlKey('https://example.com/a/'));
    expect(urlKey('https://example.com/A')).not.toBe(urlKey('https://example.com/a'));
  });
});
