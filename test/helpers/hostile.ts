/**
 * Hostile peers for the security tests: the strings a malicious API server, webhook receiver or
 * file would send, a raw HTTP receiver that answers any status line (node:http refuses to write
 * some of them), and the checks that what reached the terminal is harmless.
 *
 * ```ts
 * const api = await startHostileApi();             // fault server answering hostile data
 * spawnSched(['webhooks', 'ls'], { env: api.env }) // SCHED_BASE_URL / SCHED_API_KEY set
 * expectTerminalSafe(r.stderr, 'webhooks ls');     // no escape, control, bidi, invisible
 * expect(injectedLines(r.stderr)).toEqual([]);     // no "::error::" at a line start
 * const rx = await startRawReceiver(rawResponse(500, ESC_TITLE));
 * const sb = spawnServer(['sandbox', '--port', '0'], env); await sb.waitFor(/Ctrl-C/);
 * ```
 */
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { writeFileSync } from 'node:fs';
import { execa } from 'execa';
import { expect } from 'vitest';
import { BIN } from './run.js';
import { until } from './until.js';
import { envelope, f, startFaultServer, type FaultServer } from './fault-server.js';

/** Clears the screen and writes "hi" to the clipboard (OSC 52). */
export const ESC_CLIPBOARD = '\x1b]52;c;aGk=\x07\x1b[2J';
/** Sets the terminal title. */
export const ESC_TITLE = '\x1b]0;PWNED\x07';
/** Bidi override and the invisible characters issue 16 found passing through. */
export const INVISIBLES = '\u202e\u200e\u200f\u061c\u200b\ufeff\u2066';
/** A GitHub Actions workflow command: harmful only at the start of a line. */
export const WORKFLOW_COMMAND = '::error::INJECTED';
/** Everything at once: escapes (7- and 8-bit), C0, DEL, C1, bidi, invisibles, line breaks. */
export const HOSTILE =
  `h0${ESC_CLIPBOARD}${ESC_TITLE}\x1b[8m\x9b31m\x85\x7f\x07${INVISIBLES}` +
  `\n${WORKFLOW_COMMAND}\r\x1b[1A\u2028${WORKFLOW_COMMAND}\r\n${WORKFLOW_COMMAND}end`;

/** A UUID as a hostile server would send it. */
export const HOSTILE_UUID = `3f1c9a4e-8a52-4f0e-9d7b-2c5e6a1b0d11${HOSTILE}`;
/** A webhook URL as a hostile server would store and list it. */
export const HOSTILE_URL = `https://hooks.example.com/${HOSTILE}`;

// eslint-disable-next-line no-control-regex
const SGR = /^\x1b\[[0-9;]*m/;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/;
const INVISIBLE = /[\u200b\u200e\u200f\u061c\ufeff\u00ad\u2060-\u2064\u180e]/;

/**
 * What is wrong with text bound for a terminal: each escape sequence (with `colour`, SGR
 * colour sequences are allowed), C0 control other than tab, LF and CRLF, DEL, C1 control,
 * bidi control or invisible format character, named with its offset.
 */
export function terminalProblems(text: string, opts: { colour?: boolean } = {}): string[] {
  const problems: string[] = [];
  for (let i = 0; i < text.length; i++) {
    const ch = text[i]!;
    const c = ch.charCodeAt(0);
    const at = `at ${i}: ${JSON.stringify(text.slice(Math.max(0, i - 10), i + 10))}`;
    if (c === 0x1b) {
      const sgr = SGR.exec(text.slice(i));
      if (opts.colour && sgr && !/\[(?:[0-9;]*;)?8[;m]/.test(sgr[0])) {
        i += sgr[0].length - 1;
        continue;
      }
      problems.push(`escape sequence ${at}`);
    } else if (c === 0x0d) {
      if (text[i + 1] !== '\n') problems.push(`carriage return ${at}`);
    } else if (c < 0x20 && c !== 0x09 && c !== 0x0a) problems.push(`C0 control ${at}`);
    else if (c >= 0x7f && c <= 0x9f) problems.push(`DEL/C1 control ${at}`);
    else if (c === 0x2028 || c === 0x2029) problems.push(`line separator ${at}`);
    else if (BIDI.test(ch)) problems.push(`bidi control ${at}`);
    else if (INVISIBLE.test(ch)) problems.push(`invisible character ${at}`);
  }
  return problems;
}

export function expectTerminalSafe(text: string, label: string, opts: { colour?: boolean } = {}) {
  expect(terminalProblems(text, opts), label).toEqual([]);
}

/** Lines that begin with (optionally indented) server text: the workflow command. */
export function injectedLines(text: string): string[] {
  return text.split(/\r\n|\n/).filter((l) => l.trimStart().startsWith(WORKFLOW_COMMAND));
}

/** Both checks, for stdout and stderr of a run. */
export function expectHarmless(
  r: { stdout: string; stderr: string },
  label: string,
  opts: { colour?: boolean } = {},
): void {
  expectTerminalSafe(r.stdout, `${label}: stdout`, opts);
  expectTerminalSafe(r.stderr, `${label}: stderr`, opts);
  expect(injectedLines(r.stdout), `${label}: stdout lines started by server text`).toEqual([]);
  expect(injectedLines(r.stderr), `${label}: stderr lines started by server text`).toEqual([]);
}

export const HOSTILE_KEY = 'hostile-test-key-0123456789';

export function hostileWebhook(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    uuid: HOSTILE_UUID,
    url: HOSTILE_URL,
    events: ['meetingScheduled', `meetingCancelled${HOSTILE}`],
    secret: null,
    created_at: `2026-01-01T00:00:00+00:00${HOSTILE}`,
    ...overrides,
  };
}

export function hostileMeetingType(): Record<string, unknown> {
  return {
    uuid: HOSTILE_UUID,
    name: `Intro ${HOSTILE}`,
    slug: `intro${HOSTILE}`,
    description: HOSTILE,
    duration: 30,
  };
}

/** (Re)sets every documented route of `srv` to answer hostile strings in every field. */
export function hostileRoutes(srv: FaultServer): void {
  srv.clear();
  const mtPath = '/api/users/me/meeting-types';
  srv.on('GET', mtPath, f.json(200, envelope([hostileMeetingType()], { path: mtPath })));
  srv.on('GET', '/api/webhooks', f.json(200, envelope([hostileWebhook()])));
  srv.on('POST', '/api/webhooks', f.json(201, hostileWebhook()));
  srv.on('DELETE', '/api/webhooks/*', f.status(204));
  srv.on(
    'POST',
    '/api/single-use-link',
    f.json(201, { code: `c0de${HOSTILE}`, url: `https://x.example/s/${HOSTILE}` }),
  );
}

/**
 * A fault server that answers every documented route with hostile strings in every field it
 * returns: meeting types, links, webhooks (listed, created), deletes (204). Routes can be
 * replaced with `api.on(...)` for one test, and restored with hostileRoutes(api).
 */
export async function startHostileApi(): Promise<
  FaultServer & { env: { SCHED_BASE_URL: string; SCHED_API_KEY: string } }
> {
  const srv = await startFaultServer();
  hostileRoutes(srv);
  return Object.assign(srv, {
    env: { SCHED_BASE_URL: srv.baseUrl, SCHED_API_KEY: HOSTILE_KEY },
  });
}

/** A 422 body whose field names and messages are hostile. */
export function hostileValidationBody(): Record<string, unknown> {
  return {
    code: 422,
    message: `Invalid arguments ${HOSTILE}`,
    errors: {
      [`x${ESC_CLIPBOARD}`]: [`bad ${ESC_TITLE}`],
      [`y\n${WORKFLOW_COMMAND}${INVISIBLES}`]: [`worse${HOSTILE}`],
    },
  };
}

export interface RawReceiver {
  url: string;
  /** Raw requests received (head and body as latin1 text). */
  requests: string[];
  close(): Promise<void>;
}

/**
 * A receiver that answers every request with exactly `response` (raw bytes: status line,
 * headers, body), e.g. a status text holding escape sequences, after reading the request.
 */
export async function startRawReceiver(response: string | Buffer): Promise<RawReceiver> {
  const requests: string[] = [];
  const sockets = new Set<net.Socket>();
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      const end = buf.indexOf('\r\n\r\n');
      if (end < 0) return;
      const head = buf.subarray(0, end).toString('latin1');
      const length = Number(/\r\ncontent-length:\s*(\d+)/i.exec(head)?.[1] ?? 0);
      if (buf.length < end + 4 + length) return;
      requests.push(buf.toString('latin1'));
      buf = Buffer.alloc(0);
      socket.end(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}/hook`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        for (const s of sockets) s.destroy();
        server.close(() => resolve());
      }),
  };
}

/** A raw HTTP/1.1 response with the given status line text and body. */
export function rawResponse(status: number, statusText: string, body = ''): Buffer {
  const b = Buffer.from(body, 'utf8');
  return Buffer.concat([
    Buffer.from(
      `HTTP/1.1 ${status} ${statusText}\r\ncontent-type: text/plain\r\ncontent-length: ${b.length}\r\nconnection: close\r\n\r\n`,
      'utf8',
    ),
    b,
  ]);
}

export interface ServerProcess {
  stdout(): string;
  stderr(): string;
  /** Resolves when `re` matches the stream's output so far; rejects if the process ends first. */
  waitFor(re: RegExp, stream?: 'stdout' | 'stderr'): Promise<void>;
  /** True once the process has ended. */
  ended(): boolean;
  /** SIGTERM (unless it already ended); resolves with the exit code. */
  stop(): Promise<number | undefined>;
}

/** Spawns the built binary as a long-running server (`sandbox`, `webhooks listen`). */
export function spawnServer(
  argv: string[],
  env: Record<string, string | undefined>,
): ServerProcess {
  const child = execa(process.execPath, [BIN, ...argv], {
    env: { ...process.env, NO_COLOR: '1', ...env },
    reject: false,
  });
  const out = { stdout: '', stderr: '' };
  let done = false;
  child.stdout!.on('data', (c: Buffer) => (out.stdout += c.toString('utf8')));
  child.stderr!.on('data', (c: Buffer) => (out.stderr += c.toString('utf8')));
  const finished = child.then((r) => {
    done = true;
    return r;
  });
  return {
    stdout: () => out.stdout,
    stderr: () => out.stderr,
    ended: () => done,
    waitFor: (re, stream = 'stderr') =>
      until(
        () => re.test(out[stream]),
        `${re} on ${stream}`,
        () => out.stderr,
        {
          timeoutMs: 15_000,
          unless: finished,
        },
      ),
    async stop() {
      if (!done) child.kill('SIGTERM');
      return (await finished).exitCode;
    },
  };
}

export const STATE_TYPE_UUID = 'aaaaaaaa-aaaa-4aaa-8aaa-aaaaaaaaaaaa';

/**
 * Writes a sandbox state file with one meeting type (fields overridable: a state file may hold
 * anything), one unused link per code, and the given webhooks.
 */
export function writeSandboxState(
  file: string,
  o: {
    type?: Record<string, unknown>;
    linkCodes?: string[];
    webhooks?: Array<{ uuid: string; url: string }>;
  },
): void {
  writeFileSync(
    file,
    JSON.stringify({
      format: 'sched-sandbox-state',
      version: 1,
      meeting_types: [
        {
          uuid: STATE_TYPE_UUID,
          name: 'Intro',
          slug: 'intro',
          description: '',
          duration: 30,
          ...o.type,
        },
      ],
      links: (o.linkCodes ?? []).map((code) => ({
        code,
        meeting_type_uuid: STATE_TYPE_UUID,
        created_at: '2026-01-01T00:00:00+00:00',
        used_at: null,
        meeting_uuid: null,
      })),
      webhooks: (o.webhooks ?? []).map((w) => ({
        events: ['meetingScheduled'],
        secret: null,
        created_at: '2026-01-01T00:00:00+00:00',
        ...w,
      })),
      meetings: [],
    }),
  );
}
