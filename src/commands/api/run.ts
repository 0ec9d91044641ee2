// `sched api <path>`: one authenticated request through the same client as every command (key,
// base URL, retries for GET and DELETE only, timeouts, proxies, redirect rule, --verbose), the
// answer printed as received. A status that is not 2xx still prints its body on stdout, then
// the error line on stderr and the exit code of the table (the error the client words).
// Everything is checked before a request is sent.
import { STATUS_CODES } from 'node:http';
import type { Context } from '../../context.js';
import type { ApiOptions } from './inputs.js';
import type { ApiClient, ApiRequest, RawResponse } from '../../api/client.js';
import { UsageError } from '../../errors.js';
import { refuseRecordPerLine, renderReceived, show } from '../../output/render.js';
import { writeAfterChange } from '../../output/unwritten.js';
import { readAtMost } from '../../read-bytes.js';
import { fileLabel, readUserFile, streamSource, untilAborted } from '../../user-file.js';
import { MAX_PAYLOAD_BYTES } from '../../domain/webhooks/input.js';
import { apiHeaders, apiMethod, apiPath, fieldsBody, pagedPath } from './request.js';

export async function run(ctx: Context, o: ApiOptions): Promise<void> {
  const path = apiPath(o.path);
  const headers = apiHeaders(o.header ?? []);
  const fields = fieldsBody(o.rawField ?? [], o.field ?? []);
  if (fields !== undefined && o.input !== undefined) {
    throw new UsageError('give the body either as fields (-f, -F) or with --input, not both');
  }
  const method = apiMethod(o.method, fields !== undefined || o.input !== undefined);
  // One item per line needs items, which only --paginate has.
  if (!o.paginate) {
    refuseRecordPerLine(
      ctx.globals,
      '--paginate',
      'without --paginate the body is printed as received (-o json)',
    );
  }
  if (o.paginate && method !== 'GET') {
    throw new UsageError(`--paginate reads the pages of a GET, not a ${method}`);
  }
  if (o.paginate && o.include) {
    throw new UsageError('--include cannot be combined with --paginate (one answer per page)');
  }
  const body =
    o.input !== undefined
      ? await readBody(ctx, o.input)
      : fields !== undefined
        ? Buffer.from(fields)
        : undefined;

  const client = await ctx.api();
  const req: ApiRequest = { method, path, headers, rawBody: body, signal: ctx.signal };
  if (o.paginate) return paginateAll(ctx, client, req);

  const res = await client.requestRaw(req);
  const print = () =>
    renderReceived(ctx.io, res.body, o.include ? statusAndHeaders(res) : undefined);
  // A write the service accepted changed the account: a stdout that fails says so.
  if (method === 'GET' || res.error) await print();
  else await writeAfterChange(`${method} ${path} was answered ${res.status}`, print);
  if (res.alreadyGone) {
    ctx.io.err(
      `note: ${method} ${path} answered 404 after an earlier attempt that may have reached it: it is gone either way`,
    );
    return;
  }
  if (res.error) throw res.error;
}

/**
 * The body of --input: a file (or `-`, stdin) of at most MAX_PAYLOAD_BYTES, read through the
 * one user-file reader (a FIFO nobody writes to still ends on Ctrl-C or SIGTERM; /dev/zero
 * stops at the cap), as `events send --payload-file` reads its payload.
 */
async function readBody(ctx: Context, file: string): Promise<Buffer> {
  const tooLarge = (what: string) =>
    new UsageError(
      `${what} is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB, the most --input sends`,
      { hint: 'send a smaller body, or split the request' },
    );
  if (file === '-') {
    if (ctx.io.stdinIsTTY) {
      throw new UsageError('--input - reads the body from stdin, but stdin is a terminal', {
        hint: 'pipe the body in: sched api webhooks --input - < body.json',
      });
    }
    const bytes = await untilAborted(streamSource(ctx.io.stdin), ctx.signal, 'stdin', (s) =>
      readAtMost(s, MAX_PAYLOAD_BYTES),
    );
    if (bytes === undefined) throw tooLarge('the body on stdin');
    return bytes;
  }
  const r = await readUserFile(file, {
    what: '--input',
    max: MAX_PAYLOAD_BYTES,
    signal: ctx.signal,
  });
  if ('tooLarge' in r) throw tooLarge(fileLabel('--input', file));
  return r.bytes;
}

function statusAndHeaders(res: RawResponse): string[] {
  const lines = [`HTTP/1.1 ${res.status} ${STATUS_CODES[res.status] ?? ''}`.trimEnd()];
  for (const [k, v] of Object.entries(res.headers)) lines.push(`${k}: ${v}`);
  return lines;
}

/**
 * --paginate: every page of the list through the pager `--all` uses (a few pages in flight,
 * slowing down on 429), the items printed as one JSON array or one per line.
 */
async function paginateAll(ctx: Context, client: ApiClient, req: ApiRequest): Promise<void> {
  const { paginate, parseEnvelope } = await import('../../api/paginate.js');
  const { adaptivePageLimiter } = await import('../../bulk/page-walk.js');
  const paged = pagedPath(req.path);
  const what = `GET ${paged.path}`;
  const listing = paginate<unknown>(
    async (page, limit, signal, rateLimitOwner) => {
      const query: Array<[string, string]> = [...paged.query, ['page', String(page)]];
      if (limit !== undefined) query.push(['limit', String(limit)]);
      const res = await client.requestRaw({
        ...req,
        path: paged.path,
        query,
        signal,
        rateLimitOwner,
        expectJson: true,
      });
      if (res.error) {
        // Nothing is printed yet when the first page fails: its body is the answer to show.
        if (page === paged.page) await renderReceived(ctx.io, res.body);
        throw res.error;
      }
      return parseEnvelope(res.json, what);
    },
    {
      all: true,
      from: paged.page,
      limit: paged.limit,
      signal: ctx.signal,
      what,
      limiter: adaptivePageLimiter,
    },
  );
  async function* pages(): AsyncGenerator<unknown[]> {
    for await (const p of listing.pages()) yield p.items;
  }
  // No columns: the items themselves, as a JSON array or one a line.
  await show(ctx.io, ctx.globals, { records: { pages: pages() } });
}
