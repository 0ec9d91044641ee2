// sched auth login [--with-key | --key-command <command>] — choose the base URL, take the key
// (masked prompt, stdin with --with-key, or what the key command prints), check it against the
// API, and store the profile only if it is accepted: with --key-command, the command and never
// the key.
import type { Context } from '../../context.js';
import type { AuthLoginOptions } from './inputs.js';
import { normalizeBaseUrl } from '../../context.js';
import {
  AuthError,
  fieldsOf,
  isSchedError,
  messageOf,
  NotFoundError,
  UsageError,
} from '../../errors.js';
import { overrideNotes } from '../../config/sources.js';
import { readAtMost } from '../../read-bytes.js';
import { joinClauses } from '../../text/clauses.js';
import { checkProfileName, KNOWN_BASE_URLS, maskKey, type Profile } from '../../config/profiles.js';
import type { Choice } from '../../prompt.js';
import { cannotAsk } from '../../text/no-prompt.js';
import { DEFAULT_SANDBOX_API_KEY } from '../../defaults.js';
import { isLoopback } from '../../api/url.js';

const MAX_KEY_BYTES = 16 * 1024;

async function readKeyFromStdin(ctx: Context): Promise<string> {
  if (ctx.io.stdinIsTTY) {
    throw new UsageError('--with-key reads the API key from stdin, which is a terminal here', {
      hint: 'pipe it in: printf %s "$SCHED_KEY" | sched auth login --with-key (or drop --with-key to be asked)',
    });
  }
  const bytes = await readAtMost(ctx.io.stdin, MAX_KEY_BYTES);
  if (!bytes) throw new UsageError('stdin holds far more than an API key');
  // Keys never contain whitespace: trimming forgives `echo "$KEY" |` and CRLF files.
  const key = bytes.toString('utf8').trim();
  if (!key) {
    throw new UsageError('no API key on stdin', {
      hint: 'printf %s "$SCHED_KEY" | sched auth login --with-key',
    });
  }
  if (/\s/.test(key))
    throw new UsageError('the API key read from stdin contains whitespace; pipe only the key');
  return key;
}

async function chooseBaseUrl(ctx: Context, current: string): Promise<string> {
  const prompter = await ctx.prompter();
  const CUSTOM = '\u0000custom';
  const choices: Choice<string>[] = KNOWN_BASE_URLS.map((k) => ({
    name: `${k.name}  ${k.url}${k.url === current ? '  (current)' : ''}`,
    value: k.url,
    description: k.description,
  }));
  if (!KNOWN_BASE_URLS.some((k) => k.url === current)) {
    choices.unshift({ name: `${current}  (current)`, value: current });
  } else {
    // The current one first, so Enter keeps it.
    choices.sort((a, b) => Number(b.value === current) - Number(a.value === current));
  }
  choices.push({ name: 'Custom URL…', value: CUSTOM, description: 'any other address of the API' });
  const picked = await prompter.select('Which service?', choices);
  if (picked !== CUSTOM) return picked;
  // A custom URL that does not end in /api is checked before the key is asked: a wrong one
  // would otherwise be found only after the key was typed (a 404 on the key check).
  for (;;) {
    const raw = await prompter.input('Base URL of the API (e.g. https://example.com/api)', {
      validate: (v) => {
        try {
          normalizeBaseUrl(v, 'the prompt');
          return true;
        } catch (e) {
          return messageOf(e);
        }
      },
    });
    const url = normalizeBaseUrl(raw, 'the prompt');
    if (/\/api$/.test(new URL(url).pathname)) return url;
    const here = await probeApi(ctx, url);
    if (here === 'api') return url;
    const withApi = `${url}/api`;
    if (here === 'not-found' && (await probeApi(ctx, withApi)) === 'api') {
      const use = await prompter.confirm(
        `${url} is not the API, but ${withApi} answers like it. Use ${withApi}?`,
        { default: true },
      );
      if (use) return withApi;
      continue;
    }
    const why = here === 'not-found' ? 'it answers 404 where the API has its meeting types' : here;
    ctx.io.err(
      `${ctx.io.colorErr.red('✗')} ${url} does not look like the scheduling API (${why}); the base URL usually ends in /api. Enter it again (Ctrl-C stops).`,
    );
  }
}

/** A key that is no one's: enough to tell the API (it answers 401) from another server. */
const PROBE_KEY = 'sched-login-probe';

/**
 * Whether `url` is the scheduling API, asked without the user's key: the API answers its
 * meeting-type list with 401 to an unknown key; another server answers 404 (or not at all).
 */
async function probeApi(ctx: Context, url: string): Promise<'api' | 'not-found' | string> {
  const client = await ctx.apiFor(url, PROBE_KEY);
  const { listMeetingTypes } = await import('../../api/endpoints.js');
  try {
    await listMeetingTypes(client, { limit: 1, signal: ctx.signal });
    return 'api';
  } catch (e) {
    if (e instanceof AuthError) return 'api';
    if (e instanceof NotFoundError) return 'not-found';
    if (isSchedError(e) && (e.exitCode === 130 || e.exitCode === 143)) throw e;
    return messageOf(e);
  }
}

/** A rejected key may be asked for again this many times in all, on a terminal. */
const KEY_TRIES = 3;

/** Checks the key against the API; the errors say that nothing was stored. */
async function checkKey(ctx: Context, baseUrl: string, key: string): Promise<void> {
  const client = await ctx.apiFor(baseUrl, key);
  const { listMeetingTypes } = await import('../../api/endpoints.js');
  try {
    await listMeetingTypes(client, { limit: 1, signal: ctx.signal });
  } catch (e) {
    if (e instanceof AuthError) {
      throw new AuthError(joinClauses(e.message, 'nothing was stored'), {
        ...fieldsOf(e),
        hint: `check the key on your account's Integrations page, and the base URL (${baseUrl})`,
      });
    }
    if (e instanceof NotFoundError) {
      throw new NotFoundError(joinClauses(e.message, 'nothing was stored'), {
        ...fieldsOf(e),
        hint: `${baseUrl} does not look like the API: the base URL usually ends in /api`,
      });
    }
    if (isSchedError(e) && e.exitCode !== 130 && e.exitCode !== 143)
      e.details.push('nothing was stored');
    throw e;
  }
}

/**
 * --key-command: checked as a command line (exit 2), run once for the key (a failure is exit 4),
 * and the key checked against the API; nothing is stored on any failure.
 */
async function keyFromCommand(ctx: Context, line: string, baseUrl: string): Promise<string> {
  const { CommandLineError, runKeyCommand, splitCommandLine } =
    await import('../../config/key-command.js');
  try {
    splitCommandLine(line);
  } catch (e) {
    if (!(e instanceof CommandLineError)) throw e;
    throw new UsageError(`invalid --key-command: ${e.message}`, {
      hint: `e.g. --key-command 'secret-tool lookup service sched' or --key-command 'op read "op://vault/My item/key"'`,
    });
  }
  let key: string;
  try {
    key = await runKeyCommand(line, {
      env: ctx.env,
      profile: ctx.globals.profile,
      signal: ctx.signal,
    });
  } catch (e) {
    if (isSchedError(e) && e.exitCode !== 130 && e.exitCode !== 143)
      e.details.push('nothing was stored');
    throw e;
  }
  // `printf %s <key>` would put the key in config.json after all.
  if (line.includes(key)) {
    throw new UsageError(
      'the key command holds the key it prints: stored, it would put the key in the config file; nothing was stored',
      {
        hint: 'store the key in a secret store and give the command that reads it (see SECURITY.md)',
      },
    );
  }
  await checkKey(ctx, baseUrl, key);
  return key;
}

/** The question that offers the local sandbox's documented key (DEFAULT_SANDBOX_API_KEY). */
export const SANDBOX_KEY_QUESTION =
  "Use the sandbox's documented key (that of `sched sandbox` without --api-key)?";

/** The masked prompt: a rejected key is asked for again (the service chosen is kept). */
async function askKey(ctx: Context, baseUrl: string): Promise<string> {
  const prompter = await ctx.prompter();
  // A local sandbox (a loopback base URL) has no Integrations page: its documented key is
  // offered first.
  const sandbox = isLoopback(new URL(baseUrl).hostname);
  if (sandbox && (await prompter.confirm(SANDBOX_KEY_QUESTION, { default: true }))) {
    try {
      await checkKey(ctx, baseUrl, DEFAULT_SANDBOX_API_KEY);
      return DEFAULT_SANDBOX_API_KEY;
    } catch (e) {
      if (!(e instanceof AuthError)) throw e;
      ctx.io.err(
        `${ctx.io.colorErr.red('✗')} the sandbox at ${baseUrl} rejected its documented key: it was started with --api-key; enter that key.`,
      );
    }
  }
  const from = sandbox ? 'the key `sched sandbox` printed' : 'from the Integrations page';
  for (let attempt = 1; ; attempt++) {
    const key = (
      await prompter.password(`API key for ${baseUrl} (${from})`, {
        validate: (v) => (v.trim() ? true : 'the key cannot be empty'),
      })
    ).trim();
    try {
      await checkKey(ctx, baseUrl, key);
      return key;
    } catch (e) {
      if (!(e instanceof AuthError) || attempt >= KEY_TRIES) throw e;
      ctx.io.err(
        `${ctx.io.colorErr.red('✗')} ${baseUrl} rejected that key${e.status ? ` (${e.status})` : ''}; nothing was stored. Enter it again (try ${attempt + 1} of ${KEY_TRIES}; Ctrl-C stops).`,
      );
    }
  }
}

export async function run(ctx: Context, opts: AuthLoginOptions): Promise<void> {
  const keyCommand = opts.keyCommand?.trim();
  const withKey = opts.withKey === true || keyCommand !== undefined;
  const profile = ctx.globals.profile;
  checkProfileName(profile);
  const interactive = !withKey && ctx.io.canPrompt();
  if (!withKey && !interactive) {
    throw cannotAsk(
      ctx,
      'cannot ask for the API key',
      'pipe the key in with --with-key: printf %s "$SCHED_KEY" | sched auth login --with-key',
    );
  }

  // The key command it may store is replaced, never run.
  const creds = await ctx.credentials({ mayCreate: true, runKeyCommand: false });
  let baseUrl = creds.baseUrl;
  if (interactive && ctx.globals.baseUrl === undefined) {
    baseUrl = await chooseBaseUrl(ctx, creds.baseUrl);
  }

  let key: string;
  if (keyCommand !== undefined) {
    key = await keyFromCommand(ctx, keyCommand, baseUrl);
  } else if (withKey) {
    key = await readKeyFromStdin(ctx);
    await checkKey(ctx, baseUrl, key);
  } else {
    key = await askKey(ctx, baseUrl);
  }

  const store = await ctx.config();
  const stored: Profile =
    keyCommand !== undefined ? { baseUrl, keyCommand } : { baseUrl, apiKey: key };
  await store.setProfile(profile, stored);
  const how =
    keyCommand !== undefined
      ? `key ${maskKey(key)} from \`${keyCommand}\`, which runs at each use; the key itself is not stored`
      : `key ${maskKey(key)}`;
  ctx.io.err(
    `${ctx.io.colorErr.green('✓')} Logged in to ${baseUrl} as profile "${profile}" (${how}), saved in ${store.path}`,
  );
  sayOverrides(ctx, { profile, baseUrl, key, keyCommand });
  const { printsData, show } = await import('../../output/render.js');
  if (printsData(ctx.globals)) {
    await show(ctx.io, ctx.globals, { records: [{ profile, baseUrl }], one: true });
  }
}

/**
 * What later commands of this profile will use: the environment still wins over what was just
 * stored (a sandbox tour's exports left set must not send the next write elsewhere).
 */
function sayOverrides(
  ctx: Context,
  {
    profile,
    baseUrl,
    key,
    keyCommand,
  }: { profile: string; baseUrl: string; key: string; keyCommand?: string },
): void {
  const envBaseUrl = ctx.env.SCHED_BASE_URL
    ? normalizeBaseUrl(ctx.env.SCHED_BASE_URL, 'SCHED_BASE_URL')
    : undefined;
  const envKey = ctx.env.SCHED_API_KEY || undefined;
  for (const note of overrideNotes({
    profile,
    baseUrl: envBaseUrl ?? baseUrl,
    baseUrlSource: envBaseUrl ? 'env' : 'profile',
    keySource: envKey ? 'env' : keyCommand !== undefined ? 'command' : 'profile',
    keyCommand,
    storedBaseUrl: baseUrl,
    envOverridesProfileKey: envKey !== undefined && envKey !== key,
  })) {
    ctx.io.err(ctx.io.colorErr.yellow(note));
  }
}
