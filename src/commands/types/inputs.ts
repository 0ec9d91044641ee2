// The arguments and options of every `sched types` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import type { SortDirection } from '../../api/endpoints.js';
import { UsageError } from '../../errors.js';
import { quote } from '../../text/quote.js';
import { arg, input, type InputOf, list, PAGE_GROUP, PAGE_OPTIONS, value } from '../define.js';

export const listInput = input({
  options: [
    ...PAGE_OPTIONS,
    list('--sort <field[:dir]>', 'sort by a field, asc or desc (repeatable), e.g. name:asc', {
      parse: parseSort,
    }),
    value(
      '--name <text>',
      'only meeting types whose name or slug contains this text (any case; reads every page)',
    ),
  ],
  groups: [PAGE_GROUP],
});
export type TypesListOptions = InputOf<typeof listInput>;

export const getInput = input({
  args: [arg('<meeting-type>', 'a meeting-type UUID, slug or name')],
});
export type TypesGetOptions = InputOf<typeof getInput>;

/** `name`, `name:asc`, `created_at:DESC` → [field, direction]; the direction defaults to asc. */
export function parseSort(spec: string): [string, SortDirection] {
  const at = spec.lastIndexOf(':');
  const field = (at < 0 ? spec : spec.slice(0, at)).trim();
  const dir = (at < 0 ? 'asc' : spec.slice(at + 1)).trim().toLowerCase();
  // Field names are short identifiers; a huge one would only make the request line too long.
  if (!/^[A-Za-z0-9_.]{1,100}$/.test(field)) {
    throw new UsageError(`invalid --sort ${quote(spec)}: expected a field name, e.g. name:asc`);
  }
  if (dir !== 'asc' && dir !== 'desc') {
    throw new UsageError(
      `invalid --sort ${quote(spec)}: the direction must be asc or desc, e.g. ${field}:desc`,
    );
  }
  return [field, dir];
}
