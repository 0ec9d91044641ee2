// The payload `events sample` prints and `events send` sends: the sample (or the file's bytes),
// then --override/--override-new applied, then (send, on a terminal) --edit — always before it is
// serialised and signed, so the signature is right for what is sent.
import { spawn } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Context } from '../../context.js';
import { Failure, Interrupted, signalOf, UsageError } from '../../errors.js';
import { cannotAsk } from '../../text/no-prompt.js';
import { jsonErrorPlace } from '../../text/json-error.js';
import { shellQuote } from '../../text/quote.js';
import { applyOverrides, type Override } from '../../domain/webhooks/override.js';

export interface Payload {
  payload: unknown;
  body: Buffer;
}

/** The payload with `overrides` applied, serialised compactly as the service does. */
export function overridden(payload: unknown, overrides: readonly Override[]): Payload {
  const changed = applyOverrides(payload, overrides);
  return { payload: changed, body: Buffer.from(JSON.stringify(changed), 'utf8') };
}

/** The JSON in `body` (from `label`), for --override or --edit to change; a usage error if none. */
export function parsedPayload(body: Buffer, label: string, why: string): unknown {
  const text = body.toString('utf8');
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new UsageError(
      `${why} needs a JSON payload: ${label} is not JSON${jsonErrorPlace(text)}`,
    );
  }
}

/** The editor a person chose: $VISUAL, else $EDITOR, else vi. */
export function editorOf(env: Record<string, string | undefined>): string {
  return env.VISUAL?.trim() || env.EDITOR?.trim() || 'vi';
}

/**
 * --edit: opens the editor on the payload (pretty-printed, in a private temporary file) and
 * returns what was saved, checked to be JSON. Only on a terminal: nothing is sent when the
 * editor fails or the JSON does not parse.
 */
export async function editPayload(ctx: Context, payload: unknown): Promise<Payload> {
  // The editor runs on the terminal's own streams: stdout too, unlike a prompt.
  if (!ctx.io.canPrompt() || !ctx.io.stdoutIsTTY) {
    throw cannotAsk(
      ctx,
      '--edit opens an editor, which needs a terminal',
      'in a script, change fields with --override <path>=<value>, or send a file with --payload-file',
      { needsStdout: true },
    );
  }
  const dir = await mkdtemp(join(tmpdir(), 'sched-edit-'));
  const file = join(dir, 'payload.json');
  try {
    await writeFile(file, JSON.stringify(payload, null, 2) + '\n', { mode: 0o600 });
    const editor = editorOf(ctx.env);
    // The editor may carry its own arguments (`code --wait`): the shell splits it.
    const code = await new Promise<number | null>((resolve, reject) => {
      const child = spawn(`${editor} ${shellQuote(file)}`, {
        shell: true,
        stdio: 'inherit',
        env: ctx.env,
      });
      child.on('error', reject);
      child.on('exit', (c) => resolve(c));
    });
    if (ctx.signal.aborted) {
      throw new Interrupted('interrupted while editing the payload; nothing was sent', {
        signal: signalOf(ctx.signal.reason),
      });
    }
    if (code !== 0) {
      throw new Failure(
        `the editor (${editor}) exited with ${code ?? 'a signal'}; nothing was sent`,
      );
    }
    const text = await readFile(file, 'utf8');
    let edited: unknown;
    try {
      edited = JSON.parse(text) as unknown;
    } catch {
      throw new UsageError(
        `the edited payload is not JSON${jsonErrorPlace(text)}; nothing was sent`,
      );
    }
    return { payload: edited, body: Buffer.from(JSON.stringify(edited), 'utf8') };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
