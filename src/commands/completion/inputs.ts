// The arguments and options of every `sched completion` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { arg, input, type InputOf } from '../define.js';

export const printInput = input({ args: [arg('<shell>', 'bash, zsh or fish')] });
export type CompletionOptions = InputOf<typeof printInput>;

export const completeInput = input({
  args: [arg('<kind>', 'profiles, meeting-types or webhooks')],
});
export type CompleteOptions = InputOf<typeof completeInput>;
