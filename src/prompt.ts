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
  /**
   * One of `choices`. With `filter` (a long list), typing narrows the list: the words typed show
   * after the message, and the help line says that typing filters.
   */
  select<T>(
    message: string,
    choices: Choice<T>[],
    opts?: { pageSize?: number; filter?: boolean },
  ): Promise<T>;
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
  const c = io.colorErr;
  /** The help line, with what typing does first: `type to filter • ↑↓ navigate • ⏎ select`. */
  const filterTip = (keys: [string, string][]) =>
    [['type', 'to filter'] as [string, string], ...keys]
      .map(([key, action]) => `${c.bold(key)} ${c.dim(action)}`)
      .join(c.dim(' • '));
  return {
    select: (message, choices, opts) => {
      const pageSize = opts?.pageSize ?? 12;
      if (!opts?.filter) {
        return guard(() =>
          p.select({ message: m(message), choices: clean(choices), pageSize }, ctx),
        );
      }
      const all = clean(choices);
      // Every word typed must appear in the entry (any case, any order): "demo 30" finds
      // "Product demo · 30 min · product-demo".
      const source = (term: string | undefined) => {
        const words = (term ?? '').toLowerCase().split(/\s+/).filter(Boolean);
        return all.filter((ch) => words.every((w) => ch.name.toLowerCase().includes(w)));
      };
      return guard(() =>
        p.search(
          { message: m(message), source, pageSize, theme: { style: { keysHelpTip: filterTip } } },
          ctx,
        ),
      );
    },
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
