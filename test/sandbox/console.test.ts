// The console without a browser: the page and its headers, the key only on loopback and only the
// documented one (escaped),
// the snapshot (never a secret), the live event stream (deliveries as they change, other
// changes coalesced), and no door for another origin. The browser walkthrough:
// console.browser.test.ts.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHANGED_EVERY_MS } from '../../src/sandbox/console.js';
import { consoleHtml } from '../../src/sandbox/console-page.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';
import { startTestSandbox, type TestSandbox } from '../helpers/sandbox.js';

let sb: TestSandbox;
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
  sb = await startTestSandbox({ apiKey: 'k"<script>' });
});
afterAll(async () => {
  await sb.close();
  await rx.close();
});

/** Reads server-sent events from the stream until `stop` says enough (or 5 s pass). */
async function readEvents(
  res: Response,
  stop: (events: Array<{ event: string; data: unknown }>) => boolean,
): Promise<Array<{ event: string; data: unknown }>> {
  const reader = res.body!.getReader();
  const decoder = new TextDecoder();
  const events: Array<{ event: string; data: unknown }> = [];
  let buffer = '';
  const deadline = Date.now() + 5_000;
  while (!stop(events) && Date.now() < deadline) {
    const r = await reader.read();
    if (r.done) break;
    buffer += decoder.decode(r.value, { stream: true });
    let at;
    while ((at = buffer.indexOf('\n\n')) >= 0) {
      const chunk = buffer.slice(0, at);
      buffer = buffer.slice(at + 2);
      const event = /^event: (.*)$/m.exec(chunk)?.[1];
      const data = /^data: (.*)$/m.exec(chunk)?.[1];
      if (event && data) events.push({ event, data: JSON.parse(data) as unknown });
    }
  }
  await reader.cancel();
  return events;
}

describe('the console page', () => {
  it('on loopback with a key of your own: a strict CSP, no key on the page (it asks); its script and styles', async () => {
    const r = await fetch(sb.consoleUrl);
    expect(r.status).toBe(200);
    expect(r.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(r.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(r.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    const html = await r.text();
    // A key given with --api-key is a secret: never served to whoever asks for the page.
    expect(html).not.toContain('sandbox-key');
    expect(html).not.toContain('k&quot;&lt;script&gt;');
    expect(html).not.toContain('k"<script>');
    expect(html).toContain('<label for="key">API key</label>');
    const js = await fetch(`${sb.publicUrl}/_console/app.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('x-content-type-options')).toBe('nosniff');
    // The script never builds HTML from strings.
    expect(await js.text()).not.toMatch(/innerHTML|outerHTML|insertAdjacentHTML|document\.write/);
    const css = await fetch(`${sb.publicUrl}/_console/app.css`);
    expect(css.headers.get('content-type')).toBe('text/css; charset=utf-8');
  });

  it('on loopback with the documented key: the page carries it (escaped), no login', async () => {
    const plain = await startTestSandbox();
    try {
      const html = await (await fetch(plain.consoleUrl)).text();
      expect(html).toContain('<meta name="sandbox-key" content="sandbox_test_key">');
    } finally {
      await plain.close();
    }
    expect(consoleHtml({ key: 'k"<script>' })).toContain(
      '<meta name="sandbox-key" content="k&quot;&lt;script&gt;">',
    );
  });

  it('off loopback: the page carries no key (it asks for it)', async () => {
    const wide = await startTestSandbox({ host: '0.0.0.0', apiKey: 'mine' });
    try {
      const html = await (await fetch(`http://127.0.0.1:${wide.port}/`)).text();
      expect(html).not.toContain('sandbox-key');
      expect(html).not.toContain('mine');
      expect(html).toContain('<label for="key">API key</label>');
    } finally {
      await wide.close();
    }
  });
});

describe('the console endpoints', () => {
  it('the snapshot needs the key and never carries a webhook secret', async () => {
    expect((await fetch(`${sb.baseUrl}/_sandbox/snapshot`)).status).toBe(401);
    await sb.api('/webhooks', {
      method: 'POST',
      body: JSON.stringify({ url: rx.url, events: ['meetingScheduled'], secret: 'topsecret-123' }),
    });
    const r = await sb.api('/_sandbox/snapshot');
    const text = await r.text();
    expect(text).not.toContain('topsecret-123');
    const snap = JSON.parse(text) as {
      types: { total: number; items: Array<{ name: string }> };
      webhooks: { items: Array<{ url: string; signed: boolean }> };
    };
    expect(snap.types.total).toBe(8);
    expect(snap.types.items[0]!.name).toBe('Intro call');
    expect(snap.webhooks.items[0]).toMatchObject({ url: rx.url, signed: true });
  });

  it('a link in the snapshot is the link the control API shows', async () => {
    const made = await sb.mintLink();
    const snap = (await (await sb.api('/_sandbox/snapshot')).json()) as {
      links: { items: Array<{ code: string }> };
    };
    const shown = await (await sb.api(`/_sandbox/links/${made.code}`)).json();
    expect(snap.links.items.find((l) => l.code === made.code)).toEqual(shown);
    expect(shown).toMatchObject({ code: made.code, url: `${sb.publicUrl}/s/${made.code}` });
  });

  it('a preflight from another origin is never granted', async () => {
    const r = await fetch(`${sb.baseUrl}/_sandbox/faults`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'x-api-key, content-type',
      },
    });
    expect(r.status).toBe(405);
    expect(r.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('the event stream: each change of a delivery, and other changes coalesced', async () => {
    const res = await fetch(`${sb.baseUrl}/_sandbox/events`, {
      headers: { 'x-api-key': sb.apiKey },
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    // 20 webhooks made and deleted at once: a handful of "changed", not 40.
    const made = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        sb
          .api('/webhooks', {
            method: 'POST',
            body: JSON.stringify({ url: `https://x.example/${i}`, events: ['meetingCancelled'] }),
          })
          .then((r) => r.json() as Promise<{ uuid: string }>),
      ),
    );
    await Promise.all(made.map((w) => sb.api(`/webhooks/${w.uuid}`, { method: 'DELETE' })));
    const link = (await (
      await sb.api('/_sandbox/links', {
        method: 'POST',
        body: JSON.stringify({ meeting_type_uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c' }),
      })
    ).json()) as { code: string };
    await sb.api('/_sandbox/book', { method: 'POST', body: JSON.stringify({ code: link.code }) });
    // The coalesced 'changed' event may come up to CHANGED_EVERY_MS after the delivery's own.
    const events = await readEvents(
      res,
      (es) =>
        es.some(
          (e) => e.event === 'delivery' && (e.data as { state: string }).state === 'delivered',
        ) && es.some((e) => e.event === 'changed'),
    );
    const deliveries = events.filter((e) => e.event === 'delivery').map((e) => e.data);
    expect(deliveries[0]).toMatchObject({
      event: 'meetingScheduled',
      state: 'pending',
      attempts: [],
    });
    expect(deliveries.at(-1)).toMatchObject({
      state: 'delivered',
      attempts: [expect.objectContaining({ status: 200, response_body: 'ok' })],
    });
    const changed = events.filter((e) => e.event === 'changed').length;
    expect(changed).toBeGreaterThanOrEqual(1);
    // 41 changes of state arrive as a few events, at most one per CHANGED_EVERY_MS.
    expect(changed).toBeLessThan(10);
    expect(CHANGED_EVERY_MS).toBe(250);
  });
});
