// Small HTTP plumbing for the sandbox: JSON answers, and the error type that route handlers
// throw to answer with a status and a JSON body. Body reading is src/http/body.ts.
import type { ServerResponse } from 'node:http';

/**
 * Why a sandbox action was refused, as a field (the HTTP answer stays the service's): the
 * library's errors carry it as `code`, so nobody has to read the message.
 */
export type SandboxErrorReason =
  | 'link_not_found'
  | 'link_used'
  | 'meeting_not_found'
  | 'meeting_cancelled'
  | 'meeting_type_not_found';

/** A handler throws this to answer with `status` and `body`; anything else becomes a 500. */
export class HttpError extends Error {
  /** Set for the refusals in-process callers tell apart; never sent. */
  reason: SandboxErrorReason | undefined;

  constructor(
    readonly status: number,
    readonly body: Record<string, unknown>,
    readonly headers: Record<string, string> = {},
  ) {
    // Every answer the sandbox makes says why (httpError, validationError).
    super(String(body.message));
  }

  because(reason: SandboxErrorReason): this {
    this.reason = reason;
    return this;
  }
}

/** `{"code":<status>,"message":...}`, the shape the service uses for its 404. */
export function httpError(
  status: number,
  message: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
): HttpError {
  return new HttpError(status, { code: status, message, ...extra }, headers);
}

/** The service's 422 answer: a validation error body naming each invalid field. */
export function validationError(errors: Record<string, string[]>): HttpError {
  return new HttpError(422, { message: 'Invalid arguments', errors });
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json',
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-cache, private',
    ...headers,
  });
  res.end(text);
}

export function sendEmpty(res: ServerResponse, status: number): void {
  res.writeHead(status, { 'cache-control': 'no-cache, private' });
  res.end();
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  headers: Record<string, string> = {},
): void {
  sendText(res, status, html, 'text/html; charset=utf-8', headers);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  contentType: string,
  headers: Record<string, string> = {},
): void {
  res.writeHead(status, {
    'content-type': contentType,
    'content-length': String(Buffer.byteLength(text)),
    'cache-control': 'no-cache, private',
    'x-content-type-options': 'nosniff',
    ...headers,
  });
  res.end(text);
}

/** The media type of a Content-Type header, lower-cased, without parameters. */
export function mediaType(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  return header.split(';')[0]!.trim().toLowerCase();
}

const utf8 = new TextDecoder('utf-8', { fatal: true });

/** Decodes strict UTF-8 (a stray byte is a client error, not something to guess about). */
export function decodeUtf8(bytes: Buffer): string | undefined {
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}
