// The error a bulk command ends with when it stopped part-way (link create, webhooks rm,
// webhooks sync): what was done, what was not, and the cause's exit code and fields kept. One
// home for that shape, so every command that can stop half-way says it the same way.
import { asSchedError, ExitCode, fieldsOf, Interrupted, SchedError, signalOf } from '../errors.js';

export interface PartialStop {
  /** The failure that stopped the job (undefined when only interrupted). */
  cause: unknown;
  /** Stopped by Ctrl-C or SIGTERM rather than by the cause. */
  aborted: boolean;
  /** The command's signal reason: 130 for Ctrl-C, 143 for SIGTERM. */
  signalReason: unknown;
  /** What was done, e.g. "created 3 of 10 links (printed on stdout)". */
  done: string;
  /** Lines under the message: what was not done (or may have been). */
  details: string[];
  /** The failure's message line; default: "<done>, then: <cause>". */
  failed?: (causeMessage: string) => string;
  /** What to do now; a rejected key's own hint wins (what to change says more). */
  hint?: string;
  /** Applied to every line taken from the cause (a URL in it may carry a secret). */
  redact?: (s: string) => string;
}

export function partialStopError(p: PartialStop): SchedError {
  if (p.aborted) {
    return new Interrupted(`interrupted: ${p.done}`, {
      details: p.details,
      hint: p.hint,
      signal: signalOf(p.signalReason),
    });
  }
  const redact = p.redact ?? ((s: string) => s);
  const e = asSchedError(p.cause);
  const message = p.failed ? p.failed(e.message) : `${p.done}, then: ${e.message}`;
  return new SchedError(redact(message), e.exitCode, {
    ...fieldsOf(e),
    details: [...e.details.map(redact), ...p.details],
    hint: e.exitCode === ExitCode.auth && e.hint ? e.hint : (p.hint ?? e.hint),
  });
}
