// The list a deletion question shows (webhooks rm --all/--url, sync): within the width, the
// UUID and the URL always whole (the README: a URL is never broken), whatever the width.
import { describe, expect, it } from 'vitest';
import { webhookLines } from '../../../src/commands/webhooks/common.js';
import { EVENT_NAMES, type Webhook } from '../../../src/api/types.js';

const long = `https://hooks.example.com/${'very-long-path-segment/'.repeat(6)}end`;
const hook = (n: number, url: string, events: Webhook['events'] = [...EVENT_NAMES]) => ({
  uuid: `00000000-0000-4000-8000-00000000000${n}`,
  webhook: { uuid: `00000000-0000-4000-8000-00000000000${n}`, url, events } as unknown as Webhook,
});
const TARGETS = [
  hook(1, 'https://hooks.example.com/short'),
  hook(2, long),
  hook(3, `${long}?tenant=acme-corporation`),
  hook(4, 'https://hooks.example.com/cancel', ['meetingCancelled']),
];

describe('webhookLines', () => {
  it.each([60, 80, 120, 200, 400])('at %i columns every URL is whole', (columns) => {
    const lines = webhookLines(TARGETS, columns);
    const text = lines.join('\n');
    for (const t of TARGETS) {
      expect(text).toContain(t.uuid);
      expect(lines.some((l) => l.split(/\s+/).includes(t.webhook.url))).toBe(true);
    }
    expect(text).not.toContain('…');
    // A line is longer than the width only when it is a URL alone that is longer.
    for (const l of lines) {
      if (l.length > columns) expect(l.trim()).toMatch(/^https:\/\/\S+$/);
    }
  });

  it('at 120 columns: short URLs on their line with the events, a long one under its UUID', () => {
    const [u1, u2, u3, u4] = TARGETS.map((t) => t.uuid);
    expect(webhookLines(TARGETS, 120)).toEqual([
      `  ${u1}  https://hooks.example.com/short   all`,
      `  ${u2}  all`,
      `    ${long}`,
      `  ${u3}  all`,
      `    ${long}?tenant=acme-corporation`,
      `  ${u4}  https://hooks.example.com/cancel  cancelled`,
    ]);
  });

  it('wide enough for every URL: one line each', () => {
    expect(webhookLines(TARGETS, 400)).toHaveLength(4);
  });
});
