// The arguments and options of every `sched link` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { arg, flag, input, type InputOf, positiveInt, value } from '../define.js';
import { grouped } from '../../text/plural.js';

/** More links than this in one run is asked about first on a terminal (an extra zero typed). */
export const LARGE_BATCH = 1000;

export const createInput = input({
  args: [
    arg(
      '[meeting-type...]',
      'meeting types: UUID, slug, or name as people see it ("Intro call"; case ignored)',
    ),
  ],
  options: [
    // No default value: whether --count was given decides the --json shape (an array when given).
    value(
      '--count <n>',
      'links per meeting type (default 1; given, --json always prints an array)',
      {
        parse: positiveInt('--count', 100000),
      },
    ),
    value('--concurrency <n>', 'requests in flight at once', {
      parse: positiveInt('--concurrency', 64),
      default: 8,
    }),
    flag(
      '-y, --yes',
      `do not ask before more than ${grouped(LARGE_BATCH)} links (asked only on a terminal)`,
    ),
  ],
});
export type LinkCreateOptions = InputOf<typeof createInput>;
