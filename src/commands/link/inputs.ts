// The arguments and options of every `sched link` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { arg, input, type InputOf, positiveInt, value } from '../define.js';

export const createInput = input({
  args: [arg('[meeting-type...]', 'meeting-type UUIDs or slugs')],
  options: [
    value('--count <n>', 'links per meeting type', {
      parse: positiveInt('--count', 100000),
      default: 1,
    }),
    value('--concurrency <n>', 'requests in flight at once', {
      parse: positiveInt('--concurrency', 64),
      default: 8,
    }),
  ],
});
export type LinkCreateOptions = InputOf<typeof createInput>;
