// Interactive prompts (@inquirer/prompts), drawn on stderr so stdout only ever carries results.
// Loaded lazily: only commands that really ask something pay for it.
import type { IO } from './io.js';
import { Interrupted, UsageError } from './errors.js';
import { sanitizeCell } from './text/sanitize.js';

export interface Choice<T> {
  name: string;
  value: T;
  description?: string;
  checked?: boolean;
}

export interface Prompter {
  select<T>(message: string, choices: Choice<T>[], opts?: { pageSize?: number }): Promise<T>;
  checkbox<T>(message: string, choices: Choice<T>[], opts?: { required?: boolean }): Promise<T[]>;
  input(
    message: string,
    opts?: { default?: string; validate?: (v: string) => true | string },
  ): Promise<string>;
  password(message: string, opts?: { validate?: (v: string) => true | string }): Promise<string>;
  confirm(message: string, opts?: { default?: boolean }): Promise<boolean>;
}

/**
 * Why nothing can be asked, for an error that says what to give instead: --no-input, or which
 * stream is not a terminal (stdout first: `> file` is the usual reason).
 */
export function whyNoPrompt(io: Pick<IO, 'stdinIsTTY' | 'stdoutIsTTY'>, input: boolean): string {
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
  ctx: { io: Pick<IO, 'stdinIsTTY' | 'stdoutIsTTY'>; globals: { input: boolean } },
  needed: string,
  hint: string,
): UsageError {
  return new UsageError(`${needed}: ${whyNoPrompt(ctx.io, ctx.globals.input)}`, { hint });
}

function isExitPrompt(e: unknown): boolean {
  return e instanceof Error && (e.name === 'ExitPromptError' || e.name === 'AbortPromptError');
}

export async function createInquirerPrompter(io: IO, signal?: AbortSignal): Promise<Prompter> {
  const p = await import('@inquirer/prompts');
  const ctx = { input: io.stdin, output: io.stderr, signal };
  const guard = async <R>(f: () => Promise<R>): Promise<R> => {
    try {
      return await f();
    } catch (e) {
      if (isExitPrompt(e)) throw new Interrupted('cancelled at the prompt');
      throw e;
    }
  };
  // Prompts draw on stderr themselves, past the io gate: what they show is cleaned here.
  const clean = <T>(choices: Choice<T>[]): Choice<T>[] =>
    choices.map((c) => ({
      ...c,
      name: sanitizeCell(c.name),
      ...(c.description === undefined ? {} : { description: sanitizeCell(c.description) }),
    }));
  const m = sanitizeCell;
  return {
    select: (message, choices, opts) =>
      guard(() =>
        p.select(
          { message: m(message), choices: clean(choices), pageSize: opts?.pageSize ?? 12 },
          ctx,
        ),
      ),
    checkbox: (message, choices, opts) =>
      guard(() =>
        p.checkbox(
          { message: m(message), choices: clean(choices), required: opts?.required ?? false },
          ctx,
        ),
      ),
    input: (message, opts) =>
      guard(() =>
        p.input({ message: m(message), default: opts?.default, validate: opts?.validate }, ctx),
      ),
    password: (message, opts) =>
      guard(() => p.password({ message: m(message), mask: '*', validate: opts?.validate }, ctx)),
    confirm: (message, opts) =>
      guard(() => p.confirm({ message: m(message), default: opts?.default ?? false }, ctx)),
  };
}
