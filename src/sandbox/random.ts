// Where the sandbox's made-up values come from: UUIDs (webhooks, meetings, notifications),
// link codes and the clock of the times it generates (created_at, used_at, cancellations,
// the booking page's default start). Unseeded: crypto randomness and the real clock. With a
// seed (`sched sandbox --seed <n>`, `startSandbox({ seed })`): a PRNG and a clock that starts
// at a fixed instant and moves one second per change of state, so the same requests in the
// same order give the same values — for users' snapshot tests.
import { createHash, randomBytes, randomUUID } from 'node:crypto';

export interface SandboxRandom {
  uuid(): string;
  /** `n` bytes (link codes are made from them). */
  bytes(n: number): Buffer;
}

/** The instant a seeded sandbox's clock starts at: 2026-01-05T09:00:00Z (a Monday). */
export const SEEDED_EPOCH_MS = Date.UTC(2026, 0, 5, 9, 0, 0);

export const cryptoRandom: SandboxRandom = { uuid: () => randomUUID(), bytes: randomBytes };

/** sfc32 (a small, fast, well-tested PRNG), its 128-bit state from SHA-256 of the seed. */
export function seededRandom(seed: number): SandboxRandom {
  const h = createHash('sha256').update(`sched-sandbox-seed:${seed}`).digest();
  let a = h.readUInt32LE(0);
  let b = h.readUInt32LE(4);
  let c = h.readUInt32LE(8);
  let d = h.readUInt32LE(12);
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 12; i++) next(); // Mix the state before the first value.
  const bytes = (n: number): Buffer => {
    const out = Buffer.alloc(n);
    for (let i = 0; i < n; i += 4) {
      const v = next();
      for (let j = 0; j < 4 && i + j < n; j++) out[i + j] = (v >>> (8 * j)) & 0xff;
    }
    return out;
  };
  return {
    bytes,
    uuid() {
      const b = bytes(16);
      b[6] = (b[6]! & 0x0f) | 0x40; // version 4
      b[8] = (b[8]! & 0x3f) | 0x80; // RFC 4122 variant
      const hex = b.toString('hex');
      return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
    },
  };
}

/** A clock at SEEDED_EPOCH_MS that moves one second each time `tick` is called. */
export function seededClock(): { now: () => Date; tick: () => void } {
  let ticks = 0;
  return {
    now: () => new Date(SEEDED_EPOCH_MS + ticks * 1000),
    tick: () => {
      ticks += 1;
    },
  };
}

/** Whether `value` is a seed: a whole number from 0 to 2^53 - 1. */
export function isSeed(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= 0;
}
