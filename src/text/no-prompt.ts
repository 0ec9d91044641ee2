// What a command says when it needs an answer and cannot ask for one. A leaf, apart from the
// prompts themselves (src/prompt.ts), so that commands which only might ask (sig verify, for
// a missing secret) do not load the prompt code to say so.
import { UsageError } from '../errors.js';

/** Which of the standard streams are terminals (the IO says). */
interface Terminals {
  stdinIsTTY: boolean;
  stdoutIsTTY: boolean;
  stderrIsTTY: boolean;
}

/** What the reason is read from: the IO's terminals and its rule (canPrompt), the flags, env. */
export interface NoPromptContext {
  io: Terminals & { canPrompt(): boolean };
  globals: { input: boolean };
  env: Record<string, string | undefined>;
}

/**
 * Why nothing can be asked, for an error that says what to give instead: --no-input, CI, or
 * which stream is not a terminal (prompts read stdin and draw on stderr; an editor also takes
 * stdout). The order is the order of the rule in src/io.ts (canPrompt).
 */
function whyNoPrompt(ctx: NoPromptContext, needsStdout: boolean): string {
  if (!ctx.globals.input) return '--no-input was given';
  // Both terminals there and still no prompt: CI (src/io.ts inCI is the one reading of it).
  if (ctx.io.stdinIsTTY && ctx.io.stderrIsTTY && !ctx.io.canPrompt())
    return `CI is set (CI=${ctx.env.CI ?? ''}), and nothing is asked in CI`;
  if (!ctx.io.stdinIsTTY) return 'stdin is not a terminal';
  if (!ctx.io.stderrIsTTY) return 'stderr is not a terminal (it goes to a file or a pipe)';
  if (needsStdout && !ctx.io.stdoutIsTTY)
    return 'stdout is not a terminal (it goes to a file or a pipe)';
  return 'there is no terminal to ask on';
}

/**
 * The one error for "an answer is needed and nothing can be asked" (exit 2): what was needed,
 * why no prompt can appear (whyNoPrompt), and in the hint what to give instead. Every command
 * that would ask uses it (test/rules/no-prompt.test.ts). `needsStdout`: an editor, which takes
 * the terminal's own streams.
 */
export function cannotAsk(
  ctx: NoPromptContext,
  needed: string,
  hint: string,
  opts: { needsStdout?: boolean } = {},
): UsageError {
  return new UsageError(`${needed}: ${whyNoPrompt(ctx, opts.needsStdout === true)}`, { hint });
}
