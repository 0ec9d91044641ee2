// `sched events sample|send --override <path>=<value>` (and `--override-new`): set one field of
// a delivery payload before it is serialised and signed, so the signature is right for what is
// sent. A path is dotted, with array indexes (`data.invitee.email`, `data.answers[0].value`);
// the value is JSON when it parses as JSON, else a string. `--override` only changes a field
// that exists — a typo must not silently add one — and names the fields that do exist;
// `--override-new` adds a field on purpose (its parent must exist).
import { UsageError } from '../../errors.js';
import { quote } from '../../text/quote.js';
import { didYouMeanInline } from '../../text/suggest.js';

export type Segment = string | number;

export interface Override {
  flag: '--override' | '--override-new';
  /** The argument as given, for messages. */
  text: string;
  path: Segment[];
  value: unknown;
}

/** `data.answers[0].value` -> ['data', 'answers', 0, 'value']; undefined when malformed. */
export function parsePath(path: string): Segment[] | undefined {
  const segments: Segment[] = [];
  for (const part of path.split('.')) {
    const m = /^([^[\]]*)((?:\[\d+\])*)$/.exec(part);
    if (!m) return undefined;
    const [, name, indexes] = m;
    if (name === '' && (indexes === '' || segments.length === 0)) return undefined;
    if (name !== '') segments.push(/^\d+$/.test(name!) ? Number(name) : name!);
    for (const i of indexes!.matchAll(/\[(\d+)\]/g)) segments.push(Number(i[1]));
  }
  return segments.length > 0 ? segments : undefined;
}

/** `path=value` as given to --override or --override-new. */
export function parseOverride(text: string, flag: Override['flag']): Override {
  const eq = text.indexOf('=');
  const path = eq > 0 ? parsePath(text.slice(0, eq)) : undefined;
  if (!path) {
    throw new UsageError(`${flag} ${quote(text)}: expected <path>=<value>`, {
      hint: `e.g. ${flag} data.invitee.email=ada@example.com, or ${flag} 'data.answers[0].value="yes"'`,
    });
  }
  const raw = text.slice(eq + 1);
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch {
    value = raw;
  }
  return { flag, text, path, value };
}

/** How a path reads in a message: `data.answers[0]`, or `the payload` for none. */
function showPath(path: readonly Segment[]): string {
  if (path.length === 0) return 'the payload';
  return path.map((s, i) => (typeof s === 'number' ? `[${s}]` : i === 0 ? s : `.${s}`)).join('');
}

function kindOf(v: unknown): string {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'an array';
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

/** Sets one override on `root` (changed in place). */
function applyOne(root: unknown, o: Override): void {
  const fail = (message: string, hint?: string): never => {
    throw new UsageError(`${o.flag} ${quote(o.text)}: ${message}`, { hint });
  };
  let node = root;
  for (let i = 0; i < o.path.length; i++) {
    const seg = o.path[i]!;
    const here = o.path.slice(0, i);
    const last = i === o.path.length - 1;
    if (Array.isArray(node)) {
      if (typeof seg !== 'number') fail(`${showPath(here)} is an array: give an index, e.g. [0]`);
      const index = seg as number;
      const exists = index < node.length;
      const appends = index === node.length && last && o.flag === '--override-new';
      if (!exists && !appends) {
        fail(
          `${showPath(here)} has ${node.length} ${node.length === 1 ? 'item' : 'items'}${node.length > 0 ? ` (0 to ${node.length - 1})` : ''}`,
          last ? `--override-new ${showPath(o.path)}=… adds one at the end only` : undefined,
        );
      }
      if (last) {
        if (exists && o.flag === '--override-new') {
          fail(`${showPath(o.path)} exists already`, 'change it with --override');
        }
        node[index] = o.value;
        return;
      }
      node = node[index];
      continue;
    }
    if (node === null || typeof node !== 'object') {
      fail(`${showPath(here)} is ${kindOf(node)}, not an object`);
    }
    const obj = node as Record<string, unknown>;
    const key = String(seg);
    const exists = Object.prototype.hasOwnProperty.call(obj, key);
    if (last && o.flag === '--override-new') {
      if (exists) fail(`${showPath(o.path)} exists already`, 'change it with --override');
      obj[key] = o.value;
      return;
    }
    if (!exists) {
      const fields = Object.keys(obj);
      fail(
        `${showPath(here)} has no field ${quote(key)}${didYouMeanInline(key, fields)}; its fields: ${fields.join(', ') || '(none)'}`,
        last ? `to add a field on purpose, use --override-new ${showPath(o.path)}=…` : undefined,
      );
    }
    if (last) {
      obj[key] = o.value;
      return;
    }
    node = obj[key];
  }
}

/** A copy of `payload` with every override applied, in order. */
export function applyOverrides(payload: unknown, overrides: readonly Override[]): unknown {
  const copy = structuredClone(payload);
  for (const o of overrides) applyOne(copy, o);
  return copy;
}

/** The overrides of both flags, each in the order given (--override first, then --override-new). */
export function overridesOf(flags: { override?: string[]; overrideNew?: string[] }): Override[] {
  return [
    ...(flags.override ?? []).map((t) => parseOverride(t, '--override')),
    ...(flags.overrideNew ?? []).map((t) => parseOverride(t, '--override-new')),
  ];
}
