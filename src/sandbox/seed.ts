// The meeting types a fresh sandbox starts with: a small realistic set (fixed uuids and dates,
// so examples and tests can name them across restarts) and, for load tests, any number of
// synthetic ones generated deterministically.
/** A meeting type as the sandbox stores it: the list fields plus what a meeting's event_type needs. */
export interface MeetingTypeRecord {
  uuid: string;
  name: string;
  slug: string;
  description: string;
  duration: number;
  position: number;
  created_at: string;
  location: string | null;
  location_label: string | null;
  is_secret: boolean;
  type: string;
  confirmation_page_type: string;
  confirmation_page_url: string | null;
  notification_type: string;
  pass_details_to_redirected_page: boolean;
}

/** What a caller may give to define a meeting type; the rest gets sensible defaults. */
export type MeetingTypeInput = Partial<MeetingTypeRecord> & { name: string };

const DEFAULTS = {
  location: null,
  location_label: null,
  is_secret: false,
  type: 'regular',
  confirmation_page_type: 'internal',
  confirmation_page_url: null,
  notification_type: 'email',
  pass_details_to_redirected_page: false,
} as const;

/** Eight realistic meeting types. Durations repeat on purpose so sorting has ties to break. */
export const SEEDED_MEETING_TYPES: readonly MeetingTypeRecord[] = [
  {
    uuid: '3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c',
    name: 'Intro call',
    slug: 'intro-call',
    description: 'A quick first conversation to see whether we are a good fit.',
    duration: 15,
    position: 0,
    created_at: '2025-03-04T09:12:31+00:00',
    ...DEFAULTS,
    location: 'https://meet.example.com/intro',
    location_label: 'Video call',
  },
  {
    uuid: 'a7c3e1f0-52d4-4b6a-8e9f-0a1b2c3d4e5f',
    name: 'Discovery session',
    slug: 'discovery-session',
    description: 'We walk through your goals, constraints and timeline, and agree on next steps.',
    duration: 45,
    position: 1,
    created_at: '2025-03-18T14:02:09+00:00',
    ...DEFAULTS,
    location: 'https://meet.example.com/discovery',
    location_label: 'Video call',
  },
  {
    uuid: 'c9e8d7b6-a5f4-4e3d-b2c1-f0e9d8c7b6a5',
    name: 'Café-Gespräch — 30 min',
    slug: 'cafe-gesprach-30-min',
    description:
      'Ein lockeres Gespräch bei einem Kaffee – virtuell oder vor Ort in München. Bitte pünktlich sein!',
    duration: 30,
    position: 4,
    created_at: '2025-05-02T08:45:00+00:00',
    ...DEFAULTS,
    location: 'Café Frischhut, Prälat-Zistl-Straße 8, 80331 München',
    location_label: 'In person',
  },
  {
    uuid: '1b6d4f2a-8c3e-4a5b-9d7f-6e5c4b3a2918',
    name: 'Product demo',
    slug: 'product-demo',
    description: 'A live tour of the product tailored to your team, with time for questions.',
    duration: 60,
    position: 2,
    created_at: '2025-06-11T16:30:27+00:00',
    ...DEFAULTS,
    location: 'https://meet.example.com/demo',
    location_label: 'Video call',
  },
  {
    uuid: '5e4d3c2b-1a09-4f8e-a7d6-c5b4a3928170',
    name: 'Office hours',
    slug: 'office-hours',
    description: 'Drop in with questions about the API, webhooks or your integration.',
    duration: 30,
    position: 3,
    created_at: '2025-08-27T11:05:44+00:00',
    ...DEFAULTS,
    location: 'https://meet.example.com/office-hours',
    location_label: 'Video call',
  },
  {
    uuid: '8d7c6b5a-4938-4271-b60f-e1d2c3b4a596',
    name: 'Technical deep dive',
    slug: 'technical-deep-dive',
    description:
      'Ninety minutes with an engineer on architecture, data flows and edge cases. Bring logs.',
    duration: 90,
    position: 5,
    created_at: '2025-09-15T07:58:13+00:00',
    ...DEFAULTS,
    location: 'https://meet.example.com/deep-dive',
    location_label: 'Video call',
  },
  {
    uuid: 'e2f1a0b9-c8d7-4e6f-8a5b-4c3d2e1f0a9b',
    name: 'Réunion de suivi',
    slug: 'reunion-de-suivi',
    description: "Point d'avancement mensuel ; l'ordre du jour est partagé à l'avance.",
    duration: 30,
    position: 6,
    created_at: '2025-10-20T13:21:56+00:00',
    ...DEFAULTS,
    location: '+33 1 23 45 67 89',
    location_label: 'Phone call',
  },
  {
    uuid: '4a3b2c1d-0e9f-4a8b-b7c6-d5e4f3a2b1c0',
    name: '面談 (consultation in Japanese)',
    slug: 'mendan-consultation',
    description: '日本語でのご相談はこちらからご予約ください。所要時間は約20分です。',
    duration: 20,
    position: 7,
    created_at: '2025-11-03T02:14:05+00:00',
    ...DEFAULTS,
    is_secret: true,
    location: 'https://meet.example.com/mendan',
    location_label: 'Video call',
  },
];

const SYNTHETIC_DURATIONS = [15, 30, 45, 60, 90, 20, 25, 120];
// Synthetic types are older than the realistic ones, so the default "newest first" page still
// shows the realistic set first.
const SYNTHETIC_EPOCH_MS = Date.UTC(2023, 0, 1, 0, 0, 0);

/** 32 well-mixed bits from a number (murmur3's finaliser). */
function mix32(x: number): number {
  let h = x | 0;
  h = Math.imul(h ^ (h >>> 16), 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13), 0xc2b2ae35);
  return (h ^ (h >>> 16)) >>> 0;
}

function hex8(n: number): string {
  return n.toString(16).padStart(8, '0');
}

/**
 * A UUID v4-shaped string derived from a name: stable across runs, practically unique per name,
 * and cheap (a load test seeds 100,000 of them at start-up).
 */
export function deterministicUuid(name: string): string {
  let seed = 0x9e3779b9;
  for (let i = 0; i < name.length; i++) seed = Math.imul(seed ^ name.charCodeAt(i), 0x01000193);
  const a = hex8(mix32(seed));
  const b = hex8(mix32(seed + 0x6a09e667));
  const c = hex8(mix32(seed + 0xbb67ae85));
  const d = hex8(mix32(seed + 0x3c6ef372));
  const variant = ((parseInt(c[0]!, 16) & 0x3) | 0x8).toString(16);
  return `${a}-${b.slice(0, 4)}-4${b.slice(5, 8)}-${variant}${c.slice(1, 4)}-${c.slice(4)}${d}`;
}

/** ISO 8601 with a +00:00 offset and whole seconds, the way the service writes timestamps. */
export function isoWithOffset(d: Date): string {
  return d.toISOString().slice(0, 19) + '+00:00';
}

function syntheticType(i: number): MeetingTypeRecord {
  const n = String(i).padStart(6, '0');
  return {
    uuid: deterministicUuid(`sched-sandbox-meeting-type-${i}`),
    name: `Synthetic meeting ${n}`,
    slug: `synthetic-meeting-${n}`,
    description: `Generated meeting type number ${i} for load testing.`,
    duration: SYNTHETIC_DURATIONS[i % SYNTHETIC_DURATIONS.length]!,
    position: SEEDED_MEETING_TYPES.length + i,
    created_at: isoWithOffset(new Date(SYNTHETIC_EPOCH_MS + i * 60_000)),
    ...DEFAULTS,
    location: 'https://meet.example.com/synthetic',
    location_label: 'Video call',
  };
}

/**
 * The meeting types of a fresh sandbox: the realistic set, or exactly `count` types when a
 * count is given (the realistic ones first, then synthetic ones).
 */
export function seedMeetingTypes(count?: number): MeetingTypeRecord[] {
  if (count === undefined) return SEEDED_MEETING_TYPES.map((t) => ({ ...t }));
  const out: MeetingTypeRecord[] = SEEDED_MEETING_TYPES.slice(0, count).map((t) => ({ ...t }));
  for (let i = 1; out.length < count; i++) out.push(syntheticType(i));
  return out;
}

function slugify(name: string): string {
  const s = name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '');
  return s || 'meeting';
}

/** Completes caller-given meeting types (tests define their own sets this way). */
export function meetingTypesFromInput(
  inputs: readonly MeetingTypeInput[],
  now: Date,
): MeetingTypeRecord[] {
  return inputs.map((t, i) => ({
    ...DEFAULTS,
    uuid: t.uuid ?? deterministicUuid(`sched-sandbox-custom-${i}-${t.name}`),
    slug: t.slug ?? slugify(t.name),
    description: t.description ?? '',
    duration: t.duration ?? 30,
    position: t.position ?? i,
    // Later entries are newer unless told otherwise, like types created one after another.
    created_at: t.created_at ?? isoWithOffset(new Date(now.getTime() - (inputs.length - i) * 1000)),
    ...t,
  }));
}
