// The stdio transport of `sched mcp`, on the SDK's public Transport interface, in place of the
// SDK's own (whose read buffer copies everything it holds at each chunk — quadratic in a
// frame's size — and, past 10 MiB, drops the connection without a word).
//
// Reading: one line is one frame. Bytes are kept as the chunks they came in and joined once
// when the line ends, so the cost is linear in the frame's size. A frame up to MAX_FRAME_BYTES
// is read (every frame the tools accept: verify_webhook_signature's payload of 5 Mi characters,
// each escaped as \uXXXX, is 30 MiB); a longer one is read to its end, dropped and answered.
// Every frame is answered or handed on: one that is not JSON gets -32700, JSON that is not a
// JSON-RPC request, notification or response (no `jsonrpc`, a batch array) gets -32600, each
// with the frame's id when one can be read, else `id: null`; the server keeps serving.
//
// Writing: every frame is masked once more (the key and every secret known), inside its
// string values only — never the raw JSON text, so no structural token (`true`, a key name)
// can be masked — then serialised; a response that cannot be serialised becomes an error
// response for its id, never a silent drop.
import type { Readable, Writable } from 'node:stream';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { JSONRPCMessageSchema, type JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { messageOf } from '../errors.js';
import { MAX_PAYLOAD_BYTES } from '../domain/webhooks/input.js';
import type { Mask } from '../mask.js';
import { maskValues } from './clean.js';

/** The longest frame read: the longest payload a tool takes, escaped, with room for the rest. */
export const MAX_FRAME_BYTES = 6 * MAX_PAYLOAD_BYTES + 2 * 1024 * 1024;
/** How much of a frame is looked at for its id when it cannot be parsed (or is too long). */
const HEAD_BYTES = 64 * 1024;

export const PARSE_ERROR = -32700;
export const INVALID_REQUEST = -32600;
export const INTERNAL_ERROR = -32603;

type Id = string | number | null;

/**
 * Splits a byte stream into lines, linear in their size: `frame` gets each line (without its
 * LF) of at most `max` bytes; `tooLong` the first HEAD_BYTES of a longer one and its length.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  private head: Buffer | undefined;

  constructor(
    private readonly max: number,
    private readonly on: { frame(line: Buffer): void; tooLong(head: Buffer, bytes: number): void },
  ) {}

  push(chunk: Buffer): void {
    let start = 0;
    for (;;) {
      const nl = chunk.indexOf(0x0a, start);
      this.take(chunk.subarray(start, nl === -1 ? chunk.length : nl));
      if (nl === -1) return;
      this.end();
      start = nl + 1;
    }
  }

  private take(piece: Buffer): void {
    if (piece.length === 0) return;
    this.size += piece.length;
    if (this.head) return;
    if (this.size <= this.max) {
      this.parts.push(piece);
      return;
    }
    // Past the bound: keep the start (for the id), drop the rest as it comes.
    this.head = Buffer.concat([...this.parts, piece]).subarray(0, HEAD_BYTES);
    this.parts = [];
  }

  private end(): void {
    const { parts, size, head } = this;
    this.parts = [];
    this.size = 0;
    this.head = undefined;
    if (head) this.on.tooLong(head, size);
    else if (size > 0) this.on.frame(Buffer.concat(parts, size));
  }
}

/** A JSON-RPC id (string or number) of a parsed value, else null. */
export function idOf(value: unknown): Id {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const id = (value as { id?: unknown }).id;
  return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
}

/** The index of the quote that ends the JSON string starting at `start`, or -1. */
function stringEnd(text: string, start: number): number {
  for (let i = start + 1; i < text.length; i++) {
    if (text[i] === '\\') i++;
    else if (text[i] === '"') return i;
  }
  return -1;
}

const ID_VALUE = /^\s*:\s*(-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?|"(?:[^"\\]|\\.)*")/;

/**
 * The top-level "id" of the start of a JSON object that cannot be parsed whole (cut, or
 * broken after its id), or null: the members of the outermost object are read in order, and
 * nothing nested counts.
 */
export function idInText(text: string): Id {
  if (!/^\s*\{/.test(text)) return null;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const end = stringEnd(text, i);
      if (end === -1) return null;
      if (depth === 1 && text.slice(i, end + 1) === '"id"') {
        const value = ID_VALUE.exec(text.slice(end + 1, end + 1 + 400));
        if (value) return idOf({ id: JSON.parse(value[1]!) as unknown });
      }
      i = end;
    } else if (c === '{' || c === '[') depth++;
    else if (c === '}' || c === ']') depth--;
  }
  return null;
}

export interface LineTransportOptions {
  /** The mask of every secret known, read at each frame (secrets are added while serving). */
  mask: () => Mask;
  /** One line on stderr for each frame answered here. */
  note?: (line: string) => void;
  maxFrameBytes?: number;
}

export class LineTransport implements Transport {
  onclose?: () => void;
  onerror?: (error: Error) => void;
  onmessage?: (message: JSONRPCMessage) => void;
  /** Why the connection failed (stdin errored, or a frame could not be handled), if it did. */
  failure: Error | undefined;
  private readonly reader: LineReader;
  private closed = false;

  constructor(
    private readonly input: Readable,
    private readonly output: Writable,
    private readonly o: LineTransportOptions,
  ) {
    this.reader = new LineReader(o.maxFrameBytes ?? MAX_FRAME_BYTES, {
      frame: (line) => this.frame(line),
      tooLong: (head, bytes) =>
        this.reject(
          INVALID_REQUEST,
          `Invalid Request: the frame is ${bytes} bytes, over the ${this.max()} a frame may have`,
          idInText(head.toString('utf8')),
        ),
    });
  }

  private max(): number {
    return this.o.maxFrameBytes ?? MAX_FRAME_BYTES;
  }

  private readonly ondata = (chunk: Buffer | string) => {
    try {
      this.reader.push(typeof chunk === 'string' ? Buffer.from(chunk) : chunk);
    } catch (e) {
      this.fail(e);
    }
  };

  private readonly oninputerror = (e: Error) => this.fail(e);

  private fail(e: unknown): void {
    this.failure ??= e instanceof Error ? e : new Error(messageOf(e));
    this.onerror?.(this.failure);
    void this.close();
  }

  start(): Promise<void> {
    this.input.on('data', this.ondata);
    this.input.on('error', this.oninputerror);
    return Promise.resolve();
  }

  private frame(line: Buffer): void {
    const text = line.toString('utf8').replace(/\r$/, '');
    if (text.trim() === '') return;
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch {
      this.reject(
        PARSE_ERROR,
        'Parse error: the frame is not JSON',
        idInText(text.slice(0, HEAD_BYTES)),
      );
      return;
    }
    const message = JSONRPCMessageSchema.safeParse(value);
    if (!message.success) {
      this.reject(
        INVALID_REQUEST,
        Array.isArray(value)
          ? 'Invalid Request: a batch (an array) is not accepted; send one message a line'
          : 'Invalid Request: not a JSON-RPC 2.0 request, notification or response',
        idOf(value),
      );
      return;
    }
    this.onmessage?.(message.data);
  }

  /** Answers a frame the server never sees (it keeps serving). */
  private reject(code: number, message: string, id: Id): void {
    this.o.note?.(`sched mcp: a frame was answered ${code} (${message})`);
    void this.write({ jsonrpc: '2.0', id, error: { code, message } });
  }

  async send(message: JSONRPCMessage): Promise<void> {
    let line: string;
    try {
      line = JSON.stringify(maskValues(message, this.o.mask()));
    } catch (e) {
      const id = 'id' in message ? message.id : undefined;
      if (id === undefined || 'method' in message) throw e;
      line = JSON.stringify({
        jsonrpc: '2.0',
        id,
        error: { code: INTERNAL_ERROR, message: `the answer could not be sent: ${messageOf(e)}` },
      });
    }
    await this.writeLine(line);
  }

  private write(frame: unknown): Promise<void> {
    return this.writeLine(JSON.stringify(maskValues(frame, this.o.mask())));
  }

  private writeLine(line: string): Promise<void> {
    // A client that went away (EPIPE) ends the session through stdout's events, not here.
    return new Promise((resolve) => this.output.write(`${line}\n`, () => resolve()));
  }

  close(): Promise<void> {
    if (this.closed) return Promise.resolve();
    this.closed = true;
    // The error listener stays: a stream that fails after the close must not throw.
    this.input.off('data', this.ondata);
    this.input.pause();
    this.onclose?.();
    return Promise.resolve();
  }
}
