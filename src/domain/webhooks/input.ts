// Where the webhook commands get their secret and payload from. Kept apart from signature.ts
// (which stays pure) and free of heavy imports: `sched sig verify` loads only this, node:fs
// and node:crypto, and the prompter only when it really has to ask.
import type { IO } from '../../io.js';
import { Interrupted, UsageError } from '../../errors.js';
import { openUserFile, streamSource, untilAborted, type OpenedFile } from '../../user-file.js';
import { cannotAsk } from '../../text/no-prompt.js';
import { fileProblem } from '../../text/file-problem.js';
import { readAtMost } from '../../read-bytes.js';
import { signStream, type StreamedSignature } from './signature.js';
import { chooseSecret } from './secret.js';

/**
 * What reading a secret or a payload needs of a command's context: a structural part of
 * Context (context.ts), so this domain module does not import the layer above it.
 */
export interface InputContext {
  readonly io: IO;
  readonly env: Record<string, string | undefined>;
  readonly globals: { readonly input: boolean };
  readonly signal: AbortSignal;
  /** Runs `fn` when the command ends, however it ends (closing an opened file). */
  defer(fn: () => Promise<void> | void): void;
  prompter(): Promise<{
    password(message: string, opts?: { validate?: (v: string) => true | string }): Promise<string>;
  }>;
}

export type SecretSource = 'flag' | 'env' | 'prompt';

export interface ResolvedSecret {
  secret: string;
  source: SecretSource;
}

/**
 * --secret, else SCHED_WEBHOOK_SECRET, else (when `prompt` and a terminal allows it) a masked
 * prompt. Undefined when none of these gives one and prompting is not wanted. The value is
 * never trimmed: whitespace in a secret is a classic mistake that verify diagnoses.
 */
export async function resolveSecret(
  ctx: InputContext,
  flag: unknown,
  opts: { prompt: boolean; why: string },
): Promise<ResolvedSecret | undefined> {
  const found = await findSecret(ctx, flag, opts);
  // Never shown again, in whatever a server or receiver echoes (the output gate masks it).
  if (found) ctx.io.addSecrets([found.secret]);
  return found;
}

async function findSecret(
  ctx: InputContext,
  flag: unknown,
  opts: { prompt: boolean; why: string },
): Promise<ResolvedSecret | undefined> {
  const given = chooseSecret({ flag: typeof flag === 'string' ? flag : undefined }, ctx.env);
  if (given.kind === 'given') return { secret: given.secret, source: given.from as SecretSource };
  if (!opts.prompt) return undefined;
  if (!ctx.io.canPrompt()) {
    throw cannotAsk(
      ctx,
      `a webhook secret is needed ${opts.why}, and cannot be asked`,
      'give --secret <secret> or set SCHED_WEBHOOK_SECRET (a prompt appears only on a terminal)',
    );
  }
  const prompter = await ctx.prompter();
  const secret = await prompter.password('Webhook secret', { validate: nonEmptySecret });
  return { secret, source: 'prompt' };
}

/** Like resolveSecret with a prompt, for commands that cannot work without a secret. */
export async function requireSecret(
  ctx: InputContext,
  flag: unknown,
  why: string,
): Promise<string> {
  // With a prompt allowed, resolveSecret returns a secret or throws.
  return (await resolveSecret(ctx, flag, { prompt: true, why }))!.secret;
}

/** The check of every secret typed at a prompt. */
export function nonEmptySecret(v: string): true | string {
  return v.length > 0 ? true : 'the secret cannot be empty';
}

export interface PayloadSource {
  /** The file name, or undefined for stdin. */
  file: string | undefined;
  label: string;
  /** The file, opened once (src/user-file.ts): never by its path again. */
  opened?: OpenedFile;
}

/**
 * Checks where the payload will come from before anything else happens (in particular before
 * a secret prompt): a file given with --payload-file ("-" = stdin), else piped stdin. Stdin
 * that is a terminal would just hang, so it is a usage error. The file is opened here, without
 * blocking (a FIFO nobody writes to opens at once), and read later from that descriptor.
 */
export async function payloadSource(ctx: InputContext, flag: unknown): Promise<PayloadSource> {
  const file = typeof flag === 'string' && flag !== '-' ? flag : undefined;
  if (file === undefined) {
    if (ctx.io.stdinIsTTY) {
      throw new UsageError('no payload: give --payload-file <file> or pipe the payload on stdin', {
        hint: 'e.g. sched sig sign --payload-file body.json, or: sched sig sign < body.json',
      });
    }
    return { file: undefined, label: 'stdin' };
  }
  let opened: OpenedFile;
  try {
    opened = await openUserFile(file);
  } catch (e) {
    throw payloadFileError(file, e);
  }
  ctx.defer(() => opened.close());
  return { file, label: `"${file}"`, opened };
}

function payloadFileError(file: string, e: unknown): UsageError {
  return new UsageError(`cannot read payload file "${file}": ${fileProblem(e)}`);
}

/** The payload's bytes, raw (never decoded); Ctrl-C or SIGTERM stops the read at once. */
async function guarded<T>(
  ctx: InputContext,
  src: PayloadSource,
  work: (stream: AsyncIterable<Buffer>) => Promise<T>,
): Promise<T> {
  const source = src.opened ? src.opened.bytes() : streamSource(ctx.io.stdin);
  try {
    return await untilAborted(source, ctx.signal, `the payload from ${src.label}`, work);
  } catch (e) {
    if (e instanceof Interrupted) throw e;
    if (src.file !== undefined) throw payloadFileError(src.file, e);
    throw e;
  }
}

/** Streams the payload through the HMAC (any size), keeping small payloads for diagnoses. */
export async function signPayloadSource(
  ctx: InputContext,
  src: PayloadSource,
  secret: string,
): Promise<StreamedSignature> {
  const signed = await guarded(ctx, src, (stream) => signStream(secret, stream));
  // No delivery is empty: 0 bytes means nothing was piped in (or a failed download), and a
  // signature of nothing would only mislead.
  if (signed.bytes === 0) {
    throw new UsageError(`the payload from ${src.label} is empty (0 bytes)`, {
      hint: 'pipe the exact body of the delivery, or give --payload-file <file>',
    });
  }
  return signed;
}

/**
 * The most a payload read into memory may hold (events send): as much as `webhooks listen`
 * accepts in one delivery. Past it the read stops (a file like /dev/zero never ends).
 */
export const MAX_PAYLOAD_BYTES = 5 * 1024 * 1024;

/** Reads the whole payload into memory (for sending it), raw bytes, at most MAX_PAYLOAD_BYTES. */
export async function readPayload(ctx: InputContext, src: PayloadSource): Promise<Buffer> {
  const bytes = await guarded(ctx, src, (stream) => readAtMost(stream, MAX_PAYLOAD_BYTES));
  if (bytes === undefined) {
    throw new UsageError(
      `the payload from ${src.label} is larger than ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB, the most a delivery may hold`,
      { hint: 'give the exact body of one delivery' },
    );
  }
  return bytes;
}
