// The one rule for a webhook URL, whoever takes it: `webhooks add --url`, `webhooks rm --url`,
// the entries of a `webhooks sync` file, `webhooks listen --register` and `--forward-to`, and
// `events send --to`. Each caller names its own flag or field; the verdict is the same for all.
import { UsageError } from '../../errors.js';
import { quote, quoteUrl } from '../../text/quote.js';

/** Longer than any real endpoint; what browsers and most webhook services accept at most. */
export const MAX_WEBHOOK_URL = 2048;

export interface WebhookUrlProblem {
  reason: 'credentials' | 'not-http' | 'too-long';
  /** Reads after the flag or field name: `--url must not contain …`, `webhooks[2].url: must …`. */
  message: string;
  hint?: string;
}

/**
 * Why `raw` is not a usable webhook URL, or undefined when it is: an absolute http(s) URL with
 * a host, no white space anywhere, no user name or password, at most 2048 characters.
 * Credentials are refused because the service shows the URL to anyone who lists the webhooks
 * (and `webhooks ls` prints it into CI logs); no message ever repeats them.
 */
export function webhookUrlProblem(raw: string): WebhookUrlProblem | undefined {
  let u: URL | undefined;
  try {
    u = new URL(raw.trim());
  } catch {
    u = undefined;
  }
  if (u && (u.username !== '' || u.password !== '')) {
    u.username = '';
    u.password = '';
    return {
      reason: 'credentials',
      message: 'must not contain a user name or password',
      hint: `webhook URLs are shown to anyone who lists them; use e.g. ${quote(u.href)} and a signing secret`,
    };
  }
  if (
    !u ||
    raw === '' ||
    /\s/.test(raw) ||
    (u.protocol !== 'http:' && u.protocol !== 'https:') ||
    u.hostname === ''
  ) {
    return {
      reason: 'not-http',
      message: `must be an absolute http(s) URL without spaces; got ${quoteUrl(raw)}`,
      hint: 'e.g. https://example.com/hooks/sched',
    };
  }
  if (raw.length > MAX_WEBHOOK_URL) {
    return {
      reason: 'too-long',
      message: `must be at most ${MAX_WEBHOOK_URL} characters long; got ${raw.length}`,
    };
  }
  return undefined;
}

/** `raw` when it is a usable webhook URL (see webhookUrlProblem), else a usage error naming `flag`. */
export function checkWebhookUrl(raw: string, flag: string): string {
  const problem = webhookUrlProblem(raw);
  if (problem) throw new UsageError(`${flag} ${problem.message}`, { hint: problem.hint });
  return raw;
}

/**
 * The key a URL is matched by: WHATWG-normalised (lower-case scheme and host, default port
 * dropped, `/` for an empty path), so `https://Example.com` and `https://example.com/` are one
 * endpoint. Anything unparseable is matched by its exact text.
 */
export function urlKey(url: string): string {
  try {
    return new URL(url).href;
  } catch {
    return url;
  }
}
