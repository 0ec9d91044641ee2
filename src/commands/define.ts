// Small helpers shared by every command's registration: lazy action loading, option parsers
// and help examples. Registration files import only this and commander, so start-up stays cheap.
import { InvalidArgumentError, type Command } from 'commander';
import type { Context } from '../context.js';

/** What each src/commands/<noun>/<verb>.ts exports. */
export interface CommandModule {
  run(ctx: Context, args: string[], flags: Record<string, unknown>): Promise<void>;
}

export type Loader = () => Promise<CommandModule>;

/** Turns a lazily imported command module into a commander action handler. */
export type Act = (load: Loader) => (...args: unknown[]) => Promise<void>;

export function examples(cmd: Command, lines: string[]): Command {
  return cmd.addHelpText(
    'after',
    '\nExamples:\n' +
      lines.map((l) => (l.startsWith('#') ? `  ${l}` : `  $ ${l}`)).join('\n') +
      '\n',
  );
}

export function positiveInt(what: string, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    const v = value.trim();
    if (!/^\d+$/.test(v) || Number(v) < 1 || Number(v) > max) {
      throw new InvalidArgumentError(
        max === Number.MAX_SAFE_INTEGER
          ? `${what} must be a whole number of at least 1`
          : `${what} must be a whole number from 1 to ${max}`,
      );
    }
    return Number(v);
  };
}

export function portNumber(value: string): number {
  const v = value.trim();
  if (!/^\d+$/.test(v) || Number(v) > 65535) {
    throw new InvalidArgumentError('port must be a whole number from 0 to 65535');
  }
  return Number(v);
}

/** Collects a repeatable option into an array. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
