// The arguments and options of every `sched auth` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { flag, input, value, type InputOf } from '../define.js';

export const loginInput = input({
  options: [
    flag('--with-key', 'read the API key from stdin (for CI)', { exclusive: 'key' }),
    value(
      '--key-command <command>',
      "store, instead of the key, a command that prints it (run without a shell at each use, e.g. 'secret-tool lookup service sched')",
      { exclusive: 'key' },
    ),
  ],
});
export type AuthLoginOptions = InputOf<typeof loginInput>;
