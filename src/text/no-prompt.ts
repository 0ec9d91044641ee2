// What a command says when it needs an answer and cannot ask for one. A leaf, apart from the
// prompts themselves (src/prompt.ts), so that commands which only might ask (sig verify, for
// a missing secret) do not load the prompt code to say so.
import { UsageError } from '../errors.js';

/** Which of the standard streams are terminals (the IO says). */
interface Terminals {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
}

/**
 * Why nothing can be asked, for an error that says what to give instead: --no-input, or which
 * stream is not a terminal (stdout first: `> file` is the usual reason).
 */
function whyNoPrompt(io: Terminals, input: boolean): string {
  if (!input) return '--no-input was given';
  if (!io.stdoutIsTTY) return 'stdout is not a terminal (it goes to a file or a pipe)';
  if (!io.stdinIsTTY) return 'stdin is not a terminal';
  return 'there is no terminal to ask on';
}

/**
 * The one error for "an answer is needed and nothing can be asked" (exit 2): what was needed,
 * why no prompt can appear (whyNoPrompt), and in the hint what to give instead. Every command
 * that would ask uses it (test/rules/no-prompt.test.ts).
 */
export function cannotAsk(
  ctx: { io: Terminals; globals: { input: boolean } },
  needed: string,
  hint: string,
): UsageError {
  return new UsageError(`${needed}: ${whyNoPrompt(ctx.io, ctx.globals.input)}`, { hint });
}
