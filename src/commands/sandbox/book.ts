// sched sandbox book <code|url>: does what an invitee does on the link's page — books a meeting
// through a single-use link in a running sandbox, which spends the link and delivers
// meetingScheduled to every subscribed webhook.
import type { Context } from '../../context.js';
import type { SandboxBookOptions } from './inputs.js';
import { UsageError } from '../../errors.js';
import { DEFAULT_SANDBOX_PORT } from '../../defaults.js';
import { DEFAULT_INVITEE } from '../../sandbox/meetings.js';
import { actionPath, SANDBOX_ACTIONS } from '../../sandbox/actions.js';
import { quote, quoteUrl } from '../../text/quote.js';
import { callControl, checkIsoTime, printResult, sandboxClient } from './shared.js';

/** The link's code, and its URL when one was given (it names the sandbox). */
export function parseLinkArg(arg: string): { code: string; url?: URL } {
  const v = arg.trim();
  if (/^https?:\/\//i.test(v)) {
    let url: URL;
    try {
      url = new URL(v);
    } catch {
      throw new UsageError(`${quoteUrl(v)} is not a valid URL`);
    }
    const m = /\/s\/([^/]+)\/?$/.exec(url.pathname);
    if (!m) {
      throw new UsageError(`${quoteUrl(v)} is not a single-use link URL`, {
        hint: `links look like http://127.0.0.1:${DEFAULT_SANDBOX_PORT}/s/<code>`,
      });
    }
    return { code: decodeURIComponent(m[1]!), url };
  }
  if (!/^[A-Za-z0-9_-]+$/.test(v)) {
    throw new UsageError(`${quote(arg)} is neither a link code nor a link URL`, {
      hint: 'give the code or the URL that `sched link create` printed',
    });
  }
  return { code: v };
}

function checkTimeZone(tz: string): string {
  try {
    new Intl.DateTimeFormat('en', { timeZone: tz });
  } catch {
    throw new UsageError(`--timezone ${quote(tz)} is not a known time zone`, {
      hint: 'use an IANA name such as Europe/Berlin or America/New_York',
    });
  }
  return tz;
}

export async function run(ctx: Context, flags: SandboxBookOptions): Promise<void> {
  const link = parseLinkArg(flags.codeOrUrl);
  const body: Record<string, string> = { code: link.code };
  if (flags.name !== undefined) body.name = flags.name;
  if (flags.email !== undefined) body.email = flags.email;
  if (flags.timezone !== undefined) body.timezone = checkTimeZone(flags.timezone);
  // A local time (no offset) is on the invitee's clock, as the booking page reads it.
  if (flags.at !== undefined)
    body.at = checkIsoTime(flags.at, '--at', flags.timezone ?? DEFAULT_INVITEE.timezone);

  const client = await sandboxClient(ctx, flags, link.url);
  const result = await callControl(
    ctx,
    client,
    actionPath('book'),
    body,
    `no single-use link ${quote(link.code)} in the sandbox at ${client.baseUrl}`,
  );
  const done = SANDBOX_ACTIONS.book.done;
  await printResult(ctx, client, `${done} meeting ${result.meeting.uuid}`, result);
}
