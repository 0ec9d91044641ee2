// The webhook URL rule (src/domain/webhooks/url.ts, as `webhooks add --url` applies it) on any input: it accepts exactly
// the absolute http(s) URLs with a host, no white space, no credentials and at most 2048
// characters — returned as given — and refuses everything else with one usage error that
// never repeats a password.
import { describe, expect, it } from 'vitest';
import { fc } from '../helpers/fc.js';
import { checkWebhookUrl, MAX_WEBHOOK_URL } from '../../src/domain/webhooks/url.js';
import { UsageError } from '../../src/errors.js';

/** The rule restated independently: what a URL must be. */
function acceptable(raw: string): boolean {
  if (raw === '' || /\s/.test(raw) || raw.length > MAX_WEBHOOK_URL) return false;
  let u: URL;
  try {
    u = new URL(raw);
  } catch {
    return false;
  }
  return (
    (u.protocol === 'http:' || u.protocol === 'https:') &&
    u.hostname !== '' &&
    u.username === '' &&
    u.password === ''
  );
}

function outcome(raw: string): { ok: true; value: string } | { ok: false; error: UsageError } {
  try {
    return { ok: true, value: checkWebhookUrl(raw, '--url') };
  } catch (e) {
    expect(e).toBeInstanceOf(UsageError);
    return { ok: false, error: e as UsageError };
  }
}

const urls = fc.oneof(
  fc.webUrl({ validSchemes: ['http', 'https'], withQueryParameters: true, withFragments: true }),
  fc.webUrl({ validSchemes: ['ftp', 'ws', 'file', 'mailto'] }),
  fc.webUrl({ authoritySettings: { withUserInfo: true } }),
  fc.webUrl().map((u) => u.replace('://', '://' + 'a'.repeat(2048) + '.')),
  fc.webUrl().map((u) => u.replace(/^https?:\/\//, '')),
  fc.webUrl().chain((u) => fc.nat({ max: u.length }).map((i) => u.slice(0, i) + ' ' + u.slice(i))),
  fc.string({ unit: 'grapheme', maxLength: 60 }),
  fc.string({
    unit: fc.constantFrom(
      'h',
      't',
      'p',
      's',
      ':',
      '/',
      '@',
      '.',
      'x',
      '[',
      ']',
      '%',
      '#',
      '?',
      ' ',
      '\t',
    ),
    maxLength: 40,
  }),
);

describe('webhook URL rule (property)', () => {
  it('accepts exactly the acceptable URLs, returned unchanged; refuses the rest with a usage error', () => {
    fc.assert(
      fc.property(urls, (raw) => {
        const r = outcome(raw);
        expect(r.ok, JSON.stringify(raw)).toBe(acceptable(raw));
        if (r.ok) expect(r.value).toBe(raw);
        else expect(r.error.message).toMatch(/^--url /);
      }),
    );
  });

  it('a refusal never repeats the password', () => {
    fc.assert(
      fc.property(
        fc.webUrl({ validSchemes: ['http', 'https'] }),
        fc.string({
          unit: fc.constantFrom(...'Pw9xZq_-!~'.split('')),
          minLength: 6,
          maxLength: 20,
        }),
        (url, password) => {
          const raw = url.replace('://', `://user:PWzz${password}@`);
          const r = outcome(raw);
          expect(r.ok).toBe(false);
          if (!r.ok) {
            const shown = [r.error.message, r.error.hint ?? '', ...(r.error.details ?? [])].join(
              '\n',
            );
            expect(shown).not.toContain(`PWzz${password}`);
          }
        },
      ),
    );
  });
});
