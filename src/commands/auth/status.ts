// sched auth status — profile, base URL, where the key comes from, the key masked, and
// whether the API accepts it. Exit 4 when there is no key or the API rejects it. Where the base
// URL comes from is shown too, and what the environment overrides is said on stderr.
import type { Context } from '../../context.js';
import { AuthError, isSchedError } from '../../errors.js';
import { maskKey } from '../../config/profiles.js';
import {
  baseUrlSourceText,
  keySourceText,
  noKeyHint,
  overrideNotes,
  type BaseUrlSource,
  type KeySource,
} from '../../config/sources.js';
import type { Column } from '../../output/render.js';
import { quote } from '../../text/quote.js';
import type { Credentials } from '../../context.js';

export interface AuthStatus {
  profile: string;
  baseUrl: string;
  keySource: KeySource | null;
  key: string | null;
  /** null when the check could not be made (network error). */
  valid: boolean | null;
  /** Where the base URL comes from. */
  baseUrlSource: BaseUrlSource;
}

/**
 * The credentials with the key; a key command that fails is reported after the status is shown
 * (where the key comes from, no key), like a missing key.
 */
async function credentialsOf(ctx: Context): Promise<{ creds: Credentials; keyFailure?: unknown }> {
  const creds = await ctx.credentials({ runKeyCommand: false });
  if (creds.keySource !== 'command') return { creds };
  try {
    return { creds: await ctx.credentials() };
  } catch (e) {
    if (!(e instanceof AuthError)) throw e;
    return { creds, keyFailure: e };
  }
}

export async function run(ctx: Context): Promise<void> {
  const { creds, keyFailure } = await credentialsOf(ctx);
  const status: AuthStatus = {
    profile: creds.profile,
    baseUrl: creds.baseUrl,
    keySource: creds.keySource ?? null,
    key: creds.apiKey ? maskKey(creds.apiKey) : null,
    valid: false,
    baseUrlSource: creds.baseUrlSource,
  };

  let failure: unknown;
  if (creds.apiKey) {
    const client = await ctx.api();
    const { listMeetingTypes } = await import('../../api/endpoints.js');
    try {
      await listMeetingTypes(client, { limit: 1, signal: ctx.signal });
      status.valid = true;
    } catch (e) {
      failure = e;
      if (e instanceof AuthError) status.valid = false;
      else if (isSchedError(e) && (e.exitCode === 130 || e.exitCode === 143)) throw e;
      else status.valid = null;
    }
  }

  const { humanFormat, show } = await import('../../output/render.js');
  const sourceColumn: Column<AuthStatus> = {
    key: 'baseUrlSource',
    header: 'Base URL from',
    value: (s) => (ctx.io.stdoutIsTTY ? baseUrlSourceText(creds) : s.baseUrlSource),
  };
  const columns: Column<AuthStatus>[] = [
    { key: 'profile', header: 'Profile', value: (s) => s.profile, style: 'bold' },
    { key: 'baseUrl', header: 'Base URL', value: (s) => s.baseUrl },
    {
      key: 'keySource',
      header: 'Key from',
      value: (s) => (ctx.io.stdoutIsTTY ? keySourceText(creds) : s.keySource),
    },
    { key: 'key', header: 'Key', value: (s) => s.key ?? (ctx.io.stdoutIsTTY ? '(none)' : '') },
    {
      key: 'valid',
      header: 'Accepted',
      value: (s) =>
        s.valid === true ? 'yes' : s.valid === false ? (s.key ? 'no' : '') : 'unknown',
      style: status.valid ? 'green' : 'yellow',
    },
  ];
  // Beside the base URL on a terminal; last when piped, so the columns before it keep their places.
  if (ctx.io.stdoutIsTTY && humanFormat(ctx.globals)) columns.splice(2, 0, sourceColumn);
  else columns.push(sourceColumn);
  for (const note of overrideNotes(creds)) ctx.io.err(ctx.io.colorErr.yellow(note));
  // With no key there is nothing to show but the error; JSON still gets the whole object, and
  // a failed key command the row that says where the key was to come from.
  if (creds.apiKey || keyFailure || !humanFormat(ctx.globals)) {
    await show(ctx.io, ctx.globals, { records: [status], one: true, columns });
  }
  if (keyFailure) throw keyFailure;
  if (!creds.apiKey) {
    throw new AuthError(`no API key for profile ${quote(creds.profile)}`, {
      hint: noKeyHint(creds),
    });
  }
  if (failure) throw failure;
}
