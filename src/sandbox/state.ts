// Everything the sandbox knows — meeting types, single-use links, webhooks, meetings — and its
// optional persistence to a JSON file (written atomically, mode 0600: it holds webhook secrets).
import { randomBytes } from 'node:crypto';
import type { Stats } from 'node:fs';
import { mkdir, open, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Meeting } from '../api/types.js';
import { distrust, distrustStat, octal, writableBy } from '../config/ownership.js';
import { openUserFile, type OpenedFile } from '../user-file.js';
import { readAtMost } from '../read-bytes.js';
import { fileProblem } from '../text/file-problem.js';
import { jsonErrorPlace } from '../text/json-error.js';
import { shellCommand } from '../text/quote.js';
import type { MeetingTypeRecord } from './seed.js';

export interface LinkRecord {
  code: string;
  meeting_type_uuid: string;
  created_at: string;
  /** Set when a meeting was booked through the link; the link is invalid from then on. */
  used_at: string | null;
  meeting_uuid: string | null;
}

export interface WebhookRecord {
  uuid: string;
  url: string;
  secret: string | null;
  events: string[];
  created_at: string;
}

export interface MeetingRecord {
  meeting: Meeting;
  meeting_type_uuid: string;
  link_code: string | null;
  host_timezone: string;
}

/** The fields a meeting type shows in the list (the API's documented ones plus created_at and position). */
export const LIST_FIELDS = [
  'name',
  'description',
  'duration',
  'slug',
  'uuid',
  'created_at',
  'position',
] as const;
export type ListField = (typeof LIST_FIELDS)[number];
export type SortSpec = ReadonlyArray<readonly [ListField, 'asc' | 'desc']>;

export const DEFAULT_SORT: SortSpec = [['created_at', 'desc']];
const sortKey = (spec: SortSpec) => spec.map(([f, d]) => `${f}:${d}`).join(',');
const DEFAULT_SORT_KEY = sortKey(DEFAULT_SORT);

/** How many distinct sort orders stay cached; each costs one array of references. */
const SORT_CACHE_SIZE = 32;

function compareValues(a: string | number, b: string | number): number {
  // Numbers numerically; strings in binary (code unit) order, like a *_bin collation:
  // predictable for every script.
  return a < b ? -1 : a > b ? 1 : 0;
}

function comparatorFor(spec: SortSpec): (a: MeetingTypeRecord, b: MeetingTypeRecord) => number {
  // Ties are broken by newest first, then uuid, so every order is total and pages are stable.
  const keys: SortSpec = [...spec, ['created_at', 'desc'], ['uuid', 'asc']];
  return (a, b) => {
    for (const [field, dir] of keys) {
      const c = compareValues(a[field], b[field]);
      if (c !== 0) return dir === 'asc' ? c : -c;
    }
    return 0;
  };
}

export class SandboxState {
  readonly meetingTypes: MeetingTypeRecord[];
  readonly meetingTypesByUuid = new Map<string, MeetingTypeRecord>();
  readonly links = new Map<string, LinkRecord>();
  /** Insertion order is creation order, which is the order of the list. */
  readonly webhooks = new Map<string, WebhookRecord>();
  readonly meetings = new Map<string, MeetingRecord>();
  private readonly sortCache = new Map<string, MeetingTypeRecord[]>();
  private readonly listeners = new Set<() => void>();

  constructor(meetingTypes: MeetingTypeRecord[]) {
    this.meetingTypes = meetingTypes;
    for (const t of meetingTypes) this.meetingTypesByUuid.set(t.uuid, t);
    // The default order is asked for by almost every request: sort it once, up front.
    this.sortedMeetingTypes(DEFAULT_SORT);
  }

  /** Meeting types in the given order; computed once per order and then served from cache. */
  sortedMeetingTypes(spec: SortSpec): readonly MeetingTypeRecord[] {
    const key = sortKey(spec);
    const hit = this.sortCache.get(key);
    if (hit) {
      this.sortCache.delete(key);
      this.sortCache.set(key, hit);
      return hit;
    }
    const sorted = [...this.meetingTypes].sort(comparatorFor(spec));
    this.sortCache.set(key, sorted);
    if (this.sortCache.size > SORT_CACHE_SIZE) {
      // The least recently used order but the default one, which every plain list uses. (Only
      // ever looking at the very oldest, as before, stopped evicting for good once that was
      // the default: the cache then grew by one whole order per new sort, without bound.)
      const evict = [...this.sortCache.keys()].find((k) => k !== DEFAULT_SORT_KEY)!;
      this.sortCache.delete(evict);
    }
    return sorted;
  }

  /** How many sort orders are cached: never more than SORT_CACHE_SIZE (32). */
  get cachedOrders(): number {
    return this.sortCache.size;
  }

  /** Called after every change (persistence and the console listen); returns an off. */
  onChange(fn: () => void): () => void {
    const own = () => fn();
    this.listeners.add(own);
    return () => this.listeners.delete(own);
  }

  changed(): void {
    for (const fn of this.listeners) fn();
  }

  toJSON(): StateFile {
    return {
      format: STATE_FORMAT,
      version: 1,
      meeting_types: this.meetingTypes,
      links: [...this.links.values()],
      webhooks: [...this.webhooks.values()],
      meetings: [...this.meetings.values()],
    };
  }

  static fromJSON(data: StateFile): SandboxState {
    const s = new SandboxState(data.meeting_types);
    for (const l of data.links) s.links.set(l.code, l);
    for (const w of data.webhooks) s.webhooks.set(w.uuid, w);
    for (const m of data.meetings) s.meetings.set(m.meeting.uuid, m);
    return s;
  }
}

export const STATE_FORMAT = 'sched-sandbox-state';

export interface StateFile {
  format: typeof STATE_FORMAT;
  version: 1;
  meeting_types: MeetingTypeRecord[];
  links: LinkRecord[];
  webhooks: WebhookRecord[];
  meetings: MeetingRecord[];
}

export class StateFileError extends Error {
  constructor(
    message: string,
    /** What to do about it, when there is more to say than "choose another file". */
    readonly hint?: string,
  ) {
    super(message);
  }
}

/**
 * The config's trust rule (config/ownership.ts) for the state file and its directory: the file
 * says where deliveries go and holds their secrets, so one that someone else wrote or could
 * write is refused, never just read.
 */
/** The state file's directory: one someone else can write to could swap the file. */
function checkStateDirTrust(file: string): void {
  const dir = dirname(file);
  const d = distrust(dir);
  if (d) {
    throw new StateFileError(
      d.why === 'owner'
        ? `the directory of the state file, ${dir}, belongs to another user (uid ${d.uid}); the sandbox will not use state someone else can change`
        : `the directory of the state file, ${dir}, is ${writableBy(d)} (mode ${octal(d.mode)}); ${d.by === 'group' ? 'its members' : 'anyone'} could replace the state file in it`,
      `keep the state file in a directory of your own (${shellCommand`chmod 700 ${dir}`})`,
    );
  }
}

/** The state file itself, judged from its open descriptor (the file that is then read). */
function checkStateFileTrust(file: string, st: Stats): void {
  if (!st.isFile()) {
    throw new StateFileError(
      `the state file ${file} is not a regular file`,
      'give --state a file path (the sandbox rewrites it after every change)',
    );
  }
  const f = distrustStat(st);
  if (f) {
    throw new StateFileError(
      f.why === 'owner'
        ? `the state file ${file} belongs to another user (uid ${f.uid}); the sandbox will not use state someone else wrote`
        : `the state file ${file} is ${writableBy(f)} (mode ${octal(f.mode)}); ${f.by === 'group' ? 'its members' : 'anyone'} could have changed its webhooks and secrets`,
      `check its webhooks, then ${shellCommand`chmod 600 ${file}`}; or choose another --state file`,
    );
  }
}

/** The largest state file read: thousands of meetings and deliveries are a few MiB. */
export const MAX_STATE_FILE_BYTES = 64 * 1024 * 1024;

/** The state file's text, read from one descriptor after checking it; undefined when absent. */
async function readStateText(file: string): Promise<string | undefined> {
  checkStateDirTrust(file);
  let f: OpenedFile;
  try {
    f = await openUserFile(file);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw new StateFileError(`cannot read ${file}: ${fileProblem(e)}`);
  }
  try {
    checkStateFileTrust(file, f.stat);
    if (f.stat.size > MAX_STATE_FILE_BYTES) {
      throw new StateFileError(
        `the state file ${file} is larger than ${MAX_STATE_FILE_BYTES / 1024 / 1024} MiB`,
      );
    }
    const bytes = await readAtMost(f.bytes(), MAX_STATE_FILE_BYTES);
    if (bytes === undefined) {
      throw new StateFileError(
        `the state file ${file} is larger than ${MAX_STATE_FILE_BYTES / 1024 / 1024} MiB`,
      );
    }
    return bytes.toString('utf8');
  } catch (e) {
    if (e instanceof StateFileError) throw e;
    throw new StateFileError(`cannot read ${file}: ${fileProblem(e)}`);
  } finally {
    await f.close();
  }
}

function isObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

function checkArray(data: Record<string, unknown>, key: string, idKey: string): void {
  const v = data[key];
  if (!Array.isArray(v)) throw new StateFileError(`"${key}" is not a list`);
  v.forEach((item, i) => {
    const id = isObject(item) && key === 'meetings' ? item.meeting : item;
    if (!isObject(id) || typeof id[idKey] !== 'string') {
      throw new StateFileError(`"${key}"[${i}] has no "${idKey}"`);
    }
  });
}

/**
 * Reads a state file; undefined when it does not exist. Throws StateFileError when it is unusable
 * or not to be trusted.
 */
export async function loadStateFile(file: string): Promise<StateFile | undefined> {
  const text = await readStateText(file);
  if (text === undefined) return undefined;
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch {
    throw new StateFileError(`${file} is not valid JSON${jsonErrorPlace(text)}`);
  }
  if (!isObject(data) || data.format !== STATE_FORMAT || data.version !== 1) {
    throw new StateFileError(`${file} is not a sched sandbox state file (version 1)`);
  }
  try {
    checkArray(data, 'meeting_types', 'uuid');
    checkArray(data, 'links', 'code');
    checkArray(data, 'webhooks', 'uuid');
    checkArray(data, 'meetings', 'uuid');
  } catch (e) {
    throw new StateFileError(`${file} is damaged: ${(e as Error).message}`);
  }
  return data as unknown as StateFile;
}

/** Writes the file atomically: a private temporary file beside it, fsync, then rename. */
export async function writeStateFile(file: string, data: StateFile): Promise<void> {
  // A directory made here is private too: the file holds webhook secrets.
  await mkdir(dirname(file), { recursive: true, mode: 0o700 });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fh = await open(tmp, 'wx', 0o600);
  try {
    await fh.writeFile(JSON.stringify(data) + '\n', 'utf8');
    await fh.sync();
  } catch (e) {
    await fh.close().catch(() => {});
    await unlink(tmp).catch(() => {});
    throw e;
  } finally {
    await fh.close().catch(() => {});
  }
  try {
    await rename(tmp, file);
  } catch (e) {
    await unlink(tmp).catch(() => {});
    throw e;
  }
}

/**
 * Saves the state after changes without piling up writes: at most one write runs, and any
 * number of changes during it lead to exactly one more.
 */
export class StatePersister {
  private running: Promise<void> | undefined;
  private dirty = false;
  private lastError: Error | undefined;

  constructor(
    private readonly file: string,
    private readonly state: SandboxState,
    private readonly onError: (e: Error) => void,
  ) {}

  schedule(): void {
    this.dirty = true;
    if (!this.running) this.running = this.loop();
  }

  private async loop(): Promise<void> {
    while (this.dirty) {
      this.dirty = false;
      try {
        await writeStateFile(this.file, this.state.toJSON());
        this.lastError = undefined;
      } catch (e) {
        this.lastError = e as Error;
        this.onError(e as Error);
      }
    }
    this.running = undefined;
  }

  /** Resolves when everything changed so far is on disk; rejects with the last write error. */
  async flush(): Promise<void> {
    while (this.running) await this.running;
    if (this.lastError) throw this.lastError;
  }
}
