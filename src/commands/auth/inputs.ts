// The arguments and options of every `sched auth` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { flag, input, type InputOf } from '../define.js';

export const loginInput = input({
  options: [flag('--with-key', 'read the API key from stdin (for CI)')],
});
export type AuthLoginOptions = InputOf<typeof loginInput>;
