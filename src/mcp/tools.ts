// The tools of `sched mcp`, mapped to the API and the webhook domain: what each is called, what
// it takes (a JSON Schema, and the check of what a client sent), what it may change (its
// annotations and the access level that lists it), and what it answers. No MCP SDK here: the
// server (./server.ts) lists these definitions and hands each call to callTool(), which takes
// everything from outside (the API client, the meeting-type resolver of `link create`, the
// environment) as arguments, so every rule is tested without a transport.
//
// Safety: the access level decides which tools exist (`read-only` < `default` < `write`); a
// tool that is not allowed is not listed, and a call to it is refused naming the flag. No
// result carries a secret: webhook secrets are taken only by the name of an environment
// variable of the server process (`secret_env`, as a sync file's `secretEnv`), never generated,
// never echoed; the server masks them, and the API key, in every frame it writes. A tool may
// name only variables whose names begin with SCHED_WEBHOOK_SECRET: a model a prompt injection
// steers must not send the server's other variables (the API key, a cloud credential) to a URL
// of its choosing as a webhook secret, nor probe them through a diagnosis or the masking.
import type { ApiClient } from '../api/client.js';
import {
  createSingleUseLink,
  createWebhook,
  deleteWebhook,
  listMeetingTypes,
  listWebhooks,
  meetingTypes,
  webhooks,
} from '../api/endpoints.js';
import type { Page, Paginated, PaginateOptions } from '../api/paginate.js';
import { EVENT_NAMES, type MeetingType, type Webhook } from '../api/types.js';
import { isUuid } from '../api/uuid.js';
import { heldWalk } from '../bulk/page-walk.js';
import { mcpRestartHint, type Invocation } from '../text/hints.js';
import { checkEventName, parseEventList } from '../domain/webhooks/event-names.js';
import { MAX_PAYLOAD_BYTES } from '../domain/webhooks/input.js';
import { sampleDelivery } from '../domain/webhooks/sample.js';
import {
  chooseSecret,
  envSecret,
  envSecretProblem,
  isEnvName,
  MIN_NEW_SECRET,
} from '../domain/webhooks/secret.js';
import {
  diagnoseSignature,
  likelyCause,
  receivedMatches,
  signPayload,
} from '../domain/webhooks/signature.js';
import { checkWebhookUrl } from '../domain/webhooks/url.js';
import { errorLines, isSchedError, messageOf, NotFoundError, UsageError } from '../errors.js';
import { plural } from '../text/plural.js';
import { quote } from '../text/quote.js';
import { didYouMeanInline } from '../text/suggest.js';
import type { Mask } from '../mask.js';
import { cell, cleanValue } from './clean.js';

/** What the server was started to allow: `--read-only`, nothing, or `--allow-write`. */
export type Access = 'read-only' | 'default' | 'write';

/** What a tool may change: nothing; single-use links (cannot be taken back, harm nothing); webhooks. */
export type ToolLevel = 'read' | 'mint' | 'write';

export const TOOL_NAMES = [
  'list_meeting_types',
  'create_single_use_link',
  'list_webhooks',
  'create_webhook',
  'delete_webhook',
  'verify_webhook_signature',
  'sample_event',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

/** The most items one list result carries; the most links one call mints. */
export const MAX_ITEMS = 100;
export const DEFAULT_ITEMS = 20;
export const MAX_LINKS = 25;
/** The environment variable `sig verify` reads, and verify_webhook_signature by default. */
export const DEFAULT_SECRET_ENV = 'SCHED_WEBHOOK_SECRET';
/** How the name of every variable a tool may read a secret from begins. */
export const SECRET_ENV_PREFIX = DEFAULT_SECRET_ENV;
/** The bytes the items of one list result may take (with its text, about 1 MiB in all). */
export const LIST_BYTES = 480 * 1024;

export interface ToolAnnotations {
  title: string;
  readOnlyHint: boolean;
  destructiveHint: boolean;
  idempotentHint: boolean;
  openWorldHint: boolean;
}

type JsonSchema = Record<string, unknown>;

export interface ToolDef {
  name: ToolName;
  title: string;
  description: string;
  level: ToolLevel;
  /** Whether the tool talks to the service (an account is needed; the world is open). */
  usesApi: boolean;
  inputSchema: { type: 'object'; properties: Record<string, JsonSchema>; required?: string[] };
  /** What its structuredContent holds (extra fields allowed: the API's objects are kept whole). */
  outputSchema: ObjectSchema;
}

type ObjectSchema = {
  type: 'object';
  properties: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean;
};

const PAGING: Record<string, JsonSchema> = {
  page: { type: 'integer', minimum: 1, description: 'the page to read (default 1)' },
  limit: {
    type: 'integer',
    minimum: 1,
    maximum: MAX_ITEMS,
    description: `items per page (default ${DEFAULT_ITEMS}, at most ${MAX_ITEMS})`,
  },
  all: {
    type: 'boolean',
    description: `read every page; the result still holds at most ${MAX_ITEMS} items`,
  },
};

// ---------------------------------------------------------------------------------------------
// Output schemas: our result shapes and the fields the API documents, optional where a server
// may leave them out, extra fields allowed. Every value is cleaned first (strings stay strings,
// cut or not; a value nested past 64 levels becomes a string), so only the top levels are
// typed: a cleaned or cut value always passes.

const text = (description: string): JsonSchema => ({ type: 'string', description });
const nullable = (type: string, description: string): JsonSchema => ({
  type: [type, 'null'],
  description,
});
const object = (
  properties: Record<string, JsonSchema>,
  required: string[],
  description?: string,
): ObjectSchema & { description?: string } => ({
  type: 'object',
  properties,
  required,
  ...(description ? { description } : {}),
});

const LISTING_OUTPUT: Record<string, JsonSchema> = {
  count: { type: 'integer', minimum: 0, description: 'how many items this result holds' },
  total: nullable('integer', 'how many there are (matching), when known'),
  page: nullable('integer', 'the page read (null when every page was read)'),
  pages: nullable('integer', 'how many pages there are (null when every page was read)'),
  has_more: { type: 'boolean', description: 'more items exist than this result holds' },
  truncated: {
    type: 'boolean',
    description: `a bound cut the items read (at most ${MAX_ITEMS}, about 1 MiB a result)`,
  },
  note: text('why the items were cut, and what to do'),
};
const LISTING_REQUIRED = ['count', 'has_more', 'truncated'];

const MEETING_TYPE_OUTPUT = object(
  {
    uuid: text('the meeting type UUID'),
    name: nullable('string', 'its name as people see it'),
    slug: nullable('string', 'its slug (in booking URLs)'),
    duration: nullable('number', 'minutes'),
    description: nullable('string', 'its description'),
  },
  [],
  'a meeting type as the API sent it (unknown fields kept)',
);

const WEBHOOK_OUTPUT = object(
  {
    uuid: text('the webhook UUID'),
    url: text('where deliveries go'),
    events: { type: 'array', items: { type: 'string' }, description: 'the events it receives' },
    secret: nullable('string', '"****" when the service sent a secret; never the secret'),
    created_at: nullable('string', 'when it was created (ISO 8601)'),
  },
  [],
  'a webhook as the API sent it (unknown fields kept; never its secret)',
);

const LINK_OUTPUT = object(
  {
    url: text('the single-use booking URL to give the invitee'),
    code: text('the link code'),
  },
  ['url'],
  'a single-use link as the API sent it',
);

const SECRET_ENV: JsonSchema = {
  type: 'string',
  pattern: `^${SECRET_ENV_PREFIX}[A-Za-z0-9_]*$`,
  description: `the NAME of an environment variable of the server process that holds the signing secret, beginning with ${SECRET_ENV_PREFIX} (e.g. ${SECRET_ENV_PREFIX}_ORDERS); the secret itself is never sent here`,
};

export const TOOLS: readonly ToolDef[] = [
  {
    name: 'list_meeting_types',
    title: 'List meeting types',
    description:
      'List the meeting types of the account (name, slug, duration, UUID). `query` keeps those whose name or slug contains it (case ignored).',
    level: 'read',
    usesApi: true,
    outputSchema: object(
      {
        meeting_types: { type: 'array', items: MEETING_TYPE_OUTPUT },
        ...LISTING_OUTPUT,
      },
      ['meeting_types', ...LISTING_REQUIRED],
    ),
    inputSchema: {
      type: 'object',
      properties: {
        query: { type: 'string', maxLength: 200, description: 'part of a name or slug' },
        ...PAGING,
      },
    },
  },
  {
    name: 'create_single_use_link',
    title: 'Create single-use booking links',
    description: `Mint single-use booking links for one meeting type (UUID, slug, or name as people see it). Each link books one meeting; links cannot be deleted. At most ${MAX_LINKS} per call.`,
    level: 'mint',
    usesApi: true,
    outputSchema: object(
      {
        meeting_type: text('the meeting type as it was asked for'),
        meeting_type_uuid: text('its UUID'),
        links: { type: 'array', items: LINK_OUTPUT, description: 'the links minted' },
      },
      ['meeting_type', 'meeting_type_uuid', 'links'],
    ),
    inputSchema: {
      type: 'object',
      properties: {
        meeting_type: {
          type: 'string',
          minLength: 1,
          maxLength: 200,
          description: 'the meeting type: UUID, slug, or name ("Intro call"; case ignored)',
        },
        count: {
          type: 'integer',
          minimum: 1,
          maximum: MAX_LINKS,
          description: `how many links (default 1, at most ${MAX_LINKS})`,
        },
      },
      required: ['meeting_type'],
    },
  },
  {
    name: 'list_webhooks',
    title: 'List webhooks',
    description:
      'List the webhook subscriptions of the account (UUID, URL, events). Secrets are never shown.',
    level: 'read',
    usesApi: true,
    outputSchema: object(
      { webhooks: { type: 'array', items: WEBHOOK_OUTPUT }, ...LISTING_OUTPUT },
      ['webhooks', ...LISTING_REQUIRED],
    ),
    inputSchema: { type: 'object', properties: { ...PAGING } },
  },
  {
    name: 'create_webhook',
    title: 'Create a webhook',
    description:
      'Subscribe a URL to meeting events. Signed with the secret held by the environment variable `secret_env` names (of the server process), or unsigned only when `unsigned` is true. Never generates or returns a secret.',
    level: 'write',
    usesApi: true,
    outputSchema: object(
      {
        webhook: WEBHOOK_OUTPUT,
        signed: { type: 'boolean', description: 'whether deliveries are signed' },
      },
      ['webhook', 'signed'],
    ),
    inputSchema: {
      type: 'object',
      properties: {
        url: { type: 'string', description: 'absolute http(s) URL of the receiver' },
        events: {
          type: 'array',
          items: { type: 'string', enum: [...EVENT_NAMES] },
          description: 'events to send (default all)',
        },
        secret_env: SECRET_ENV,
        unsigned: {
          type: 'boolean',
          description:
            'true to create it without a signing secret (receivers cannot tell forged deliveries)',
        },
      },
      required: ['url'],
    },
  },
  {
    name: 'delete_webhook',
    title: 'Delete a webhook',
    description: 'Delete one webhook subscription by its UUID (from list_webhooks).',
    level: 'write',
    usesApi: true,
    outputSchema: object(
      {
        uuid: text('the webhook UUID'),
        deleted: { type: 'boolean', const: true },
        already_gone: { type: 'boolean', description: 'it was deleted before this call' },
      },
      ['uuid', 'deleted', 'already_gone'],
    ),
    inputSchema: {
      type: 'object',
      properties: { uuid: { type: 'string', description: 'the webhook UUID' } },
      required: ['uuid'],
    },
  },
  {
    name: 'verify_webhook_signature',
    title: 'Verify a webhook signature',
    description: `Check a webhook-signature header value against the raw delivery body, with the secret held by the environment variable \`secret_env\` names (default ${DEFAULT_SECRET_ENV}). Says the likely cause when invalid. Needs no account.`,
    level: 'read',
    usesApi: false,
    outputSchema: object(
      {
        valid: { type: 'boolean', description: 'the verdict: the signature matches the payload' },
        reason: nullable('string', 'when invalid, the likely cause; null when valid'),
      },
      ['valid', 'reason'],
    ),
    inputSchema: {
      type: 'object',
      properties: {
        payload: { type: 'string', description: 'the raw request body, exactly as received' },
        signature: { type: 'string', description: 'the webhook-signature header value' },
        secret_env: SECRET_ENV,
      },
      required: ['payload', 'signature'],
    },
  },
  {
    name: 'sample_event',
    title: 'Sample a webhook delivery',
    description:
      'A realistic delivery body for one event, as the service sends it (for writing or testing a receiver). Needs no account.',
    level: 'read',
    usesApi: false,
    outputSchema: object(
      { event: { type: 'string', enum: [...EVENT_NAMES] } },
      ['event'],
      'the delivery body, as the service sends it',
    ),
    inputSchema: {
      type: 'object',
      properties: { event: { type: 'string', enum: [...EVENT_NAMES] } },
      required: ['event'],
    },
  },
];

/** The flag that allows a level, for the refusal and the help. */
const LEVELS: Record<Access, readonly ToolLevel[]> = {
  'read-only': ['read'],
  default: ['read', 'mint'],
  write: ['read', 'mint', 'write'],
};

export function allowed(def: ToolDef, access: Access): boolean {
  return LEVELS[access].includes(def.level);
}

/** The tools a server with this access lists. */
export function toolsFor(access: Access): ToolDef[] {
  return TOOLS.filter((t) => allowed(t, access));
}

/**
 * What each tool may do, said truthfully: a read changes nothing; links and webhooks are added
 * (nothing is overwritten) and each call adds more; a delete destroys, and deleting again
 * changes nothing more. Against the embedded sandbox no tool reaches the outside world.
 */
export function annotationsOf(def: ToolDef, opts: { sandbox: boolean }): ToolAnnotations {
  return {
    title: def.title,
    readOnlyHint: def.level === 'read',
    destructiveHint: def.name === 'delete_webhook',
    idempotentHint: def.level === 'read' || def.name === 'delete_webhook',
    openWorldHint: def.usesApi && !opts.sandbox,
  };
}

/** The variables a tool may read (their names only are ever said, to suggest a spelling). */
function readable(env: Record<string, string | undefined>): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(env).filter(([k]) => k.startsWith(SECRET_ENV_PREFIX)));
}

/** The refusal of a tool this server does not offer, naming the flag that would. */
export function refusal(name: string, access: Access, inv: Invocation = {}): UsageError {
  const def = TOOLS.find((t) => t.name === name);
  if (!def) {
    return new UsageError(`unknown tool ${quote(name)}${didYouMeanInline(name, TOOL_NAMES)}`, {
      hint: `the tools are ${toolsFor(access)
        .map((t) => t.name)
        .join(', ')}`,
    });
  }
  if (def.level === 'write') {
    return new UsageError(
      `${def.name} is not enabled: creating and deleting webhooks needs the server started with --allow-write`,
      {
        hint:
          access === 'read-only'
            ? `restart it as ${mcpRestartHint(inv, 'allow-write')} (without --read-only)`
            : `restart it as ${mcpRestartHint(inv, 'allow-write')}`,
      },
    );
  }
  return new UsageError(
    `${def.name} is not enabled: the server was started with --read-only, which allows only tools that change nothing`,
    { hint: `restart it without --read-only (${mcpRestartHint(inv, 'default')}) to mint links` },
  );
}

// ---------------------------------------------------------------------------------------------
// Arguments

type Args = Record<string, unknown>;

function argsOf(def: ToolDef, raw: unknown): Args {
  // No arguments at all are none given: the required ones are still named.
  const given = raw ?? {};
  if (typeof given !== 'object' || Array.isArray(given)) {
    throw new UsageError(`${def.name}: the arguments must be an object`);
  }
  const args = given as Args;
  const known = Object.keys(def.inputSchema.properties);
  const unknown = Object.keys(args).filter((k) => !known.includes(k));
  if (unknown.length > 0) {
    throw new UsageError(
      `${def.name}: unknown argument ${quote(unknown[0]!)}${didYouMeanInline(unknown[0]!, known)}`,
      { hint: `its arguments are ${known.join(', ')}` },
    );
  }
  for (const name of def.inputSchema.required ?? []) {
    if (args[name] === undefined) throw new UsageError(`${def.name}: ${name} is required`);
  }
  return args;
}

function str(args: Args, name: string, max = 10_000): string | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'string') throw new UsageError(`${name} must be a string`);
  if (v.length > max) throw new UsageError(`${name} is too long (at most ${max} characters)`);
  return v;
}

function int(args: Args, name: string, min: number, max: number): number | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'number' || !Number.isInteger(v)) {
    throw new UsageError(`${name} must be a whole number`);
  }
  if (v < min || v > max) {
    throw new UsageError(`${name} must be from ${min} to ${max}; got ${v}`, {
      hint: max === MAX_LINKS ? `ask again for the rest: at most ${MAX_LINKS} per call` : undefined,
    });
  }
  return v;
}

function bool(args: Args, name: string): boolean | undefined {
  const v = args[name];
  if (v === undefined) return undefined;
  if (typeof v !== 'boolean') throw new UsageError(`${name} must be true or false`);
  return v;
}

const SECRET_ENV_EXAMPLE = `${SECRET_ENV_PREFIX}_ORDERS`;

/**
 * The secret an environment variable holds, named as the caller named it (a variable whose
 * name begins with SECRET_ENV_PREFIX, and no other); never quoted. A secret for a new webhook
 * (`purpose: 'new'`) has at least MIN_NEW_SECRET characters.
 */
function secretFrom(env: Env, name: string, purpose: 'new' | 'verify'): string {
  if (!isEnvName(name)) {
    throw new UsageError(`secret_env: ${quote(name, 100)} is not an environment variable name`, {
      hint: `give the NAME of a variable of the server process, e.g. ${SECRET_ENV_EXAMPLE}, not the secret`,
    });
  }
  if (!name.startsWith(SECRET_ENV_PREFIX)) {
    throw new UsageError(
      `secret_env: ${quote(name, 100)} is not allowed: a tool may read only variables whose names begin with ${SECRET_ENV_PREFIX}`,
      {
        hint: `put the secret in the "env" of the server's configuration as ${SECRET_ENV_PREFIX}_<NAME> (e.g. ${SECRET_ENV_EXAMPLE}), restart the server and pass that name`,
      },
    );
  }
  const found = envSecret(name, env);
  if (found.ok) {
    if (purpose === 'new' && found.secret.length < MIN_NEW_SECRET) {
      throw new UsageError(
        `secret_env: the secret in ${name} is shorter than ${MIN_NEW_SECRET} characters, too weak for a new webhook`,
        {
          hint: `put a longer one in ${name} (e.g. the output of \`openssl rand -base64 32\`) and restart the server`,
        },
      );
    }
    return found.secret;
  }
  throw new UsageError(
    `secret_env: environment variable ${name} is ${envSecretProblem(name, found.problem, readable(env))} in the server process`,
    { hint: `set ${name} in the "env" of the server's configuration, then restart it` },
  );
}

// ---------------------------------------------------------------------------------------------
// Calls

export type Env = Record<string, string | undefined>;

export interface ResolvedType {
  ref: string;
  uuid: string;
}

export interface ToolDeps {
  /** The API client of the profile (or the sandbox); rejects (AuthError) without a key. */
  api(): Promise<ApiClient>;
  /** A meeting type as `link create` resolves it (UUID, slug, or name). */
  resolveMeetingType(client: ApiClient, ref: string, signal: AbortSignal): Promise<ResolvedType>;
  /** The server process's environment (secret_env is looked up here). */
  env: Env;
  /** Secrets learnt while serving a call (a webhook secret read from secret_env): masked from then on. */
  addSecrets(list: readonly string[]): void;
  /** The mask of every secret known so far (the key, secrets read), applied before any cut. */
  mask(): Mask;
  /** Serving an embedded sandbox (`mcp --sandbox`): what a tool makes lives as long as the server. */
  sandbox?: boolean;
}

/** A successful result: the API's objects (unknown fields kept) and a short text for the model. */
export interface ToolResult {
  structured: Record<string, unknown>;
  text: string;
  /** Part done, then failed (links minted before an error): the result says both. */
  isError?: boolean;
}

/** A webhook as a result shows it: a secret, if the service sent one, replaced by "****". */
export function withoutSecret(w: Webhook): Webhook {
  if (w.secret === undefined || w.secret === null) return w;
  return { ...w, secret: '****' };
}

interface Listing<T> {
  items: T[];
  page: number | null;
  pages: number | null;
  total: number | null;
  /** More items exist than this result holds (another page, or past a bound). */
  hasMore: boolean;
  /** A bound (MAX_ITEMS, LIST_BYTES) cut the items read. */
  truncated: boolean;
  /** Why fewer items are returned than were read: they would not fit in one result. */
  note?: string;
}

/**
 * The listing with its items cleaned (masked, cut, bounded in depth) and as many of them as fit
 * in LIST_BYTES: a list cut here is `truncated`, with a note saying why and what to do.
 */
export function fitted<T>(l: Listing<T>, mask: Mask): Listing<unknown> {
  const items: unknown[] = [];
  let bytes = 0;
  for (const item of l.items) {
    const clean = cleanValue(item, mask);
    bytes += Buffer.byteLength(JSON.stringify(clean)) + 1;
    if (bytes > LIST_BYTES) {
      return {
        ...l,
        items,
        hasMore: true,
        truncated: true,
        note: `only the first ${items.length} fit in one result (about 1 MiB): read by page with a smaller limit`,
      };
    }
    items.push(clean);
  }
  return { ...l, items };
}

/** One page as the API gave it, at most MAX_ITEMS items. */
async function onePage<T>(read: Promise<Page<T>>): Promise<Listing<T>> {
  const p = await read;
  const items = p.items.slice(0, MAX_ITEMS);
  return {
    items,
    page: p.page,
    pages: p.pages,
    total: p.total ?? null,
    hasMore: p.page < p.pages || items.length < p.items.length,
    truncated: items.length < p.items.length,
  };
}

/** Every page, the items `keep` accepts, at most MAX_ITEMS of them held; `total` counts them all. */
async function everyPage<T>(
  walk: (o: PaginateOptions) => Paginated<T>,
  signal: AbortSignal,
  keep: (t: T) => boolean,
): Promise<Listing<T>> {
  const items: T[] = [];
  let total = 0;
  for await (const t of walk(heldWalk(signal))) {
    if (!keep(t)) continue;
    total += 1;
    if (items.length < MAX_ITEMS) items.push(t);
  }
  const cut = total > items.length;
  return { items, page: null, pages: null, total, hasMore: cut, truncated: cut };
}

function listingArgs(args: Args) {
  return {
    page: int(args, 'page', 1, 1_000_000),
    limit: int(args, 'limit', 1, MAX_ITEMS) ?? DEFAULT_ITEMS,
    all: bool(args, 'all') ?? false,
  };
}

/** "3 meeting types (page 1 of 2; more on page 2)" and the like. */
function listingSummary(l: Listing<unknown>, noun: [string, string], filter?: string): string {
  const what = `${plural(l.items.length, noun[0], noun[1])}${filter ? ` matching ${quote(filter)}` : ''}`;
  const note = l.note ? `; ${l.note}` : '';
  if (l.page !== null) {
    const more = l.page < (l.pages ?? 0) ? `; more on page ${l.page + 1}` : '';
    return `${what} (page ${l.page} of ${Math.max(l.pages ?? 1, 1)}${more}${note})`;
  }
  return l.hasMore
    ? `${what}, the first ${l.items.length} of ${l.total}; narrow with query or read by page${note}`
    : what;
}

function listingFields(l: Listing<unknown>) {
  return {
    count: l.items.length,
    total: l.total,
    page: l.page,
    pages: l.pages,
    has_more: l.hasMore,
    truncated: l.truncated,
    ...(l.note ? { note: l.note } : {}),
  };
}

async function listMeetingTypesTool(deps: ToolDeps, args: Args, signal: AbortSignal) {
  const query = str(args, 'query', 200)?.trim();
  const { page, limit, all } = listingArgs(args);
  const client = await deps.api();
  const q = query?.toLowerCase();
  const read: Listing<MeetingType> =
    all || q
      ? await everyPage(
          (o) => meetingTypes(client, o),
          signal,
          (t) =>
            !q ||
            String(t.name).toLowerCase().includes(q) ||
            String(t.slug).toLowerCase().includes(q),
        )
      : await onePage(listMeetingTypes(client, { page, limit, signal }));
  const mask = deps.mask();
  const listing = fitted(read, mask);
  const lines = (listing.items as MeetingType[]).map(
    (t) =>
      `- ${cell(t.name, mask)} · ${cell(t.slug, mask)} · ${cell(t.duration, mask)} min · ${cell(t.uuid, mask)}`,
  );
  return {
    structured: { meeting_types: listing.items, ...listingFields(listing) },
    text: [`${listingSummary(listing, ['meeting type', 'meeting types'], query)}:`, ...lines].join(
      '\n',
    ),
  };
}

/** Under the links `mcp --sandbox` mints: they are not real, and end with the server. */
export const SANDBOX_LINKS_NOTE =
  'note: these links live only as long as this `sched mcp --sandbox` server (its sandbox is in memory): never give them to people as real booking links';

async function createLinksTool(deps: ToolDeps, args: Args, signal: AbortSignal) {
  const ref = str(args, 'meeting_type', 200)!;
  const count = int(args, 'count', 1, MAX_LINKS) ?? 1;
  const client = await deps.api();
  const type = await deps.resolveMeetingType(client, ref, signal);
  const links: Array<Record<string, unknown>> = [];
  const made = () => ({ meeting_type: type.ref, meeting_type_uuid: type.uuid, links });
  for (let i = 0; i < count; i++) {
    try {
      links.push(await createSingleUseLink(client, type.uuid, { signal }));
    } catch (e) {
      if (links.length === 0) throw e;
      // What was minted is not lost: the failure lists the links already made.
      return {
        structured: made(),
        text: [
          `created ${links.length} of ${plural(count, 'link')} (below), then:`,
          failureText(e),
          ...links.map((l) => cell(l.url, deps.mask(), 2048)),
        ].join('\n'),
        isError: true,
      };
    }
  }
  return {
    structured: made(),
    text: [
      `${plural(links.length, 'single-use link')} for ${quote(type.ref)} (${type.uuid}):`,
      ...links.map((l) => cell(l.url, deps.mask(), 2048)),
      ...(deps.sandbox ? [SANDBOX_LINKS_NOTE] : []),
    ].join('\n'),
  };
}

function webhookLine(w: Webhook, mask: Mask): string {
  const events = Array.isArray(w.events) ? w.events.map((e) => cell(e, mask, 40)).join(',') : '';
  return `- ${cell(w.uuid, mask)} ${cell(w.url, mask, 300)} [${events}]`;
}

async function listWebhooksTool(deps: ToolDeps, args: Args, signal: AbortSignal) {
  const { page, limit, all } = listingArgs(args);
  const client = await deps.api();
  const read = all
    ? await everyPage(
        (o) => webhooks(client, o),
        signal,
        () => true,
      )
    : await onePage(listWebhooks(client, { page, limit, signal }));
  const mask = deps.mask();
  const listing = fitted({ ...read, items: read.items.map(withoutSecret) }, mask);
  const items = listing.items as Webhook[];
  return {
    structured: { webhooks: items, ...listingFields(listing) },
    text: [
      `${listingSummary(listing, ['webhook', 'webhooks'])}:`,
      ...items.map((w) => webhookLine(w, mask)),
    ].join('\n'),
  };
}

async function createWebhookTool(deps: ToolDeps, args: Args, signal: AbortSignal) {
  const url = checkWebhookUrl(str(args, 'url', 4096)!, 'url');
  const rawEvents = args.events;
  if (
    rawEvents !== undefined &&
    (!Array.isArray(rawEvents) || rawEvents.some((e) => typeof e !== 'string'))
  ) {
    throw new UsageError('events must be a list of event names', {
      hint: `e.g. ["${EVENT_NAMES[0]}"]; leave it out for all events`,
    });
  }
  if (Array.isArray(rawEvents) && rawEvents.length === 0) {
    throw new UsageError('events is empty', { hint: 'leave it out to subscribe to every event' });
  }
  const events = parseEventList(rawEvents as string[] | undefined);
  const name = str(args, 'secret_env', 200);
  const unsigned = bool(args, 'unsigned') ?? false;
  if (name !== undefined && unsigned) {
    throw new UsageError('give secret_env or unsigned, not both');
  }
  // Never generated, never SCHED_WEBHOOK_SECRET: only the variable named, or unsigned.
  const choice = chooseSecret({ flag: !unsigned, variable: name ?? null }, deps.env);
  if (choice.kind === 'absent') {
    throw new UsageError(
      'a signing secret is needed: secret_env names the environment variable of the server that holds it',
      { hint: 'or pass unsigned: true to create an unsigned webhook (not recommended)' },
    );
  }
  const secret = choice.kind === 'none' ? undefined : secretFrom(deps.env, name!, 'new');
  if (secret !== undefined) deps.addSecrets([secret]);
  const client = await deps.api();
  const created = withoutSecret(await createWebhook(client, { url, events, secret }, { signal }));
  const signed =
    name === undefined
      ? 'unsigned: a receiver cannot tell its deliveries from forged ones'
      : `signed with the secret in ${name}`;
  return {
    structured: { webhook: created, signed: name !== undefined },
    text: `Created webhook ${cell(created.uuid, deps.mask())} for ${cell(created.url, deps.mask(), 300)} (${events.join(', ')}), ${signed}.`,
  };
}

async function deleteWebhookTool(deps: ToolDeps, args: Args, signal: AbortSignal) {
  const uuid = str(args, 'uuid', 200)!.trim();
  if (!isUuid(uuid)) {
    throw new UsageError(`uuid: ${quote(uuid)} is not a webhook UUID`, {
      hint: 'list_webhooks shows the UUIDs',
    });
  }
  const client = await deps.api();
  try {
    const r = await deleteWebhook(client, uuid, { signal });
    return {
      structured: { uuid, deleted: true, already_gone: r.alreadyGone },
      text: `Deleted webhook ${uuid}.`,
    };
  } catch (e) {
    if (e instanceof NotFoundError) {
      throw new NotFoundError(`no webhook ${uuid}`, {
        hint: 'list_webhooks shows the webhooks there are',
        status: e.status,
      });
    }
    throw e;
  }
}

function verifyTool(deps: ToolDeps, args: Args) {
  const payload = str(args, 'payload', MAX_PAYLOAD_BYTES)!;
  const received = str(args, 'signature', 1000)!;
  if (received.trim() === '') {
    throw new UsageError('signature is empty', {
      hint: 'pass the webhook-signature header value exactly as received',
    });
  }
  const given = str(args, 'secret_env', 200);
  if (given === undefined && deps.env[DEFAULT_SECRET_ENV] === undefined) {
    // Nothing named a secret, and the default variable holds none: say that, not a variable.
    throw new UsageError(
      `no secret was given: secret_env was not passed, and ${DEFAULT_SECRET_ENV} (the default) is not set in the server process`,
      {
        hint: `pass secret_env, the name of the server's variable that holds the webhook's secret (e.g. ${SECRET_ENV_EXAMPLE}), or set ${DEFAULT_SECRET_ENV} in the "env" of the server's configuration and restart it`,
      },
    );
  }
  const name = given ?? DEFAULT_SECRET_ENV;
  const secret = secretFrom(deps.env, name, 'verify');
  deps.addSecrets([secret]);
  const body = Buffer.from(payload, 'utf8');
  const valid = receivedMatches(signPayload(secret, body), received);
  const reason = valid
    ? null
    : likelyCause(diagnoseSignature({ secret, received, payload: body, untrusted: true }), {
        kept: true,
        bytes: body.length,
      });
  return {
    structured: { valid, reason },
    text: valid
      ? `valid: the signature matches the payload (secret from ${name})`
      : `invalid: ${reason}`,
  };
}

function sampleTool(args: Args) {
  const event = checkEventName(str(args, 'event', 100)!);
  const { payload } = sampleDelivery(event);
  const json = JSON.stringify(payload);
  return {
    structured: payload as unknown as Record<string, unknown>,
    text: `A sample ${event} delivery body (${Buffer.byteLength(json)} bytes, compact JSON as the service sends it):\n${json}`,
  };
}

/**
 * Runs one tool call: checks the access and the arguments, then calls the API (each request
 * given `signal`, so a cancelled call aborts its request). Throws a SchedError (or a bug's
 * Error) for the server to turn into an error result.
 */
export async function callTool(
  name: string,
  rawArgs: unknown,
  opts: { access: Access; deps: ToolDeps; signal: AbortSignal; invocation?: Invocation },
): Promise<ToolResult> {
  const def = TOOLS.find((t) => t.name === name);
  if (!def || !allowed(def, opts.access)) throw refusal(name, opts.access, opts.invocation);
  return RUNS[def.name](opts.deps, argsOf(def, rawArgs), opts.signal);
}

type Run = (deps: ToolDeps, args: Args, signal: AbortSignal) => ToolResult | Promise<ToolResult>;

/** What each tool does: a record by name, so a tool without its run does not compile. */
const RUNS: Record<ToolName, Run> = {
  list_meeting_types: listMeetingTypesTool,
  create_single_use_link: createLinksTool,
  list_webhooks: listWebhooksTool,
  create_webhook: createWebhookTool,
  delete_webhook: deleteWebhookTool,
  verify_webhook_signature: verifyTool,
  sample_event: (_deps, args) => sampleTool(args),
};

/** The text of a failed call: the CLI's words (`error: …`, its detail lines, `hint: …`). */
export function failureText(e: unknown): string {
  if (!isSchedError(e)) return `error: unexpected failure: ${messageOf(e)}`;
  return errorLines(e).join('\n');
}
