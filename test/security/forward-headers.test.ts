// Issue 16, point 12: `webhooks listen --forward-to` re-sends the delivery's raw body and its
// end-to-end headers, never the hop-by-hop ones (RFC 9110 §7.6.1: Connection and every header
// it names, Keep-Alive, TE, Trailer, Transfer-Encoding, Upgrade, Proxy-*) nor X-Forwarded-*
// (a sender must not choose what the app behind us believes about the client). The body
// bytes and the signature header arrive exactly as sent. Through the built binary.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHmac } from 'node:crypto';
import net from 'node:net';
import { spawnServer } from '../helpers/hostile.js';
import { startReceiver, type Receiver } from '../helpers/receiver.js';

let target: Receiver;
beforeAll(async () => {
  target = await startReceiver();
});
afterAll(() => target.close());

/** Sends one raw HTTP/1.1 request (exact header lines) and resolves with the raw answer. */
function rawPost(port: number, head: string[], body: Buffer): Promise<string> {
  return new Promise((resolve, reject) => {
    const s = net.connect(port, '127.0.0.1');
    let answer = '';
    s.on('data', (c: Buffer) => {
      answer += c.toString('latin1');
      if (/\r\n\r\n/.test(answer)) s.end();
    });
    s.on('end', () => resolve(answer));
    s.on('error', reject);
    s.write(Buffer.concat([Buffer.from(head.join('\r\n') + '\r\n\r\n', 'latin1'), body]));
  });
}

describe('12. listen --forward-to drops hop-by-hop headers', () => {
  it('Connection and what it names, Keep-Alive, TE, Trailer, Upgrade, Proxy-*, X-Forwarded-*', async () => {
    const secret = 'forward-secret-0123456789';
    const l = spawnServer(['webhooks', 'listen', '--port', '0', '--forward-to', target.url], {
      SCHED_WEBHOOK_SECRET: secret,
    });
    try {
      await l.waitFor(/ready/);
      const port = Number(/listening on http:\/\/[^:]+:(\d+)/.exec(l.stderr())![1]);
      // Bytes a re-serialisation would change: spacing, key order, a trailing newline, UTF-8.
      const body = Buffer.from(
        '{ "event":"meetingScheduled",  "uuid":"n1","data":{"uuid":"m1","name":"Zoë"} }\n',
        'utf8',
      );
      const signature = createHmac('sha256', secret).update(body).digest('base64');
      const answer = await rawPost(
        port,
        [
          'POST /hook?x=1 HTTP/1.1',
          `Host: 127.0.0.1:${port}`,
          'Content-Type: application/json',
          `Content-Length: ${body.length}`,
          `webhook-signature: ${signature}`,
          'User-Agent: SimplyMeet.me',
          'X-Custom-End-To-End: dropped',
          'Connection: keep-alive, X-Hop-Secret, x-other-hop',
          'X-Hop-Secret: must-not-pass',
          'X-Other-Hop: must-not-pass',
          'Keep-Alive: timeout=5',
          'TE: trailers',
          'Trailer: X-Checksum',
          'Upgrade: websocket',
          'Proxy-Authorization: Basic dXNlcjpwYXNz',
          'Proxy-Custom: must-not-pass',
          'X-Forwarded-For: 10.0.0.1',
          'X-Forwarded-Host: admin.internal',
          'X-Forwarded-Proto: https',
        ],
        body,
      );
      expect(answer).toMatch(/^HTTP\/1\.1 200/);
      const [got] = await target.waitFor(1);
      const names = Object.keys(got!.headers);
      for (const dropped of [
        'x-hop-secret',
        'x-other-hop',
        'keep-alive',
        'te',
        'trailer',
        'upgrade',
        'proxy-authorization',
        'proxy-custom',
        'x-forwarded-for',
        'x-forwarded-host',
        'x-forwarded-proto',
      ]) {
        expect(names, dropped).not.toContain(dropped);
      }
      // What the app needs arrives exactly.
      expect(got!.body.equals(body)).toBe(true);
      expect(got!.headers['webhook-signature']).toBe(signature);
      expect(got!.headers['content-type']).toBe('application/json');
      expect(got!.headers['user-agent']).toBe('SimplyMeet.me');
      // Only what the service sends passes (issue 20, point 6): a sender's own headers do not.
      expect(got!.headers['x-custom-end-to-end']).toBeUndefined();
      expect(got!.headers['content-length']).toBe(String(body.length));
    } finally {
      await l.stop();
    }
  });
});
