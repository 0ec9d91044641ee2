// Interactive prompts (@inquirer/prompts), drawn on stderr so stdout only ever carries results.
// Loaded lazily: only commands that really ask something pay for it.
import type { IO } from './io.js';
import { Interrupted } from './errors.js';
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
