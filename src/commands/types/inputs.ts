// The arguments and options of every `sched types` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { input, type InputOf, list, PAGE_OPTIONS } from '../define.js';

export const listInput = input({
  options: [
    ...PAGE_OPTIONS,
    list('--sort <field[:dir]>', 'sort by a field, asc or desc (repeatable), e.g. name:asc'),
  ],
});
export type TypesListOptions = InputOf<typeof listInput>;
