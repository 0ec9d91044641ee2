// Runs the plan's requests one at a time, in the safe order of executionSteps, and keeps an
// exact record of what was done, so a failure or Ctrl-C can say what changed and what did not.
// The requests themselves are injected (SyncOps): this module knows nothing about HTTP.
import type { EventName, Webhook } from '../../../api/types.js';
import type { PrintableWebhook, Step } from './types.js';

export interface SyncOps {
  create(input: { url: string; events: EventName[]; secret: string }): Promise<Webhook>;
  /** 'gone' when the webhook no longer existed (404): the goal is reached all the same. */
  remove(uuid: string): Promise<'deleted' | 'gone'>;
}

export interface StepDone {
  step: Step;
  /** For creates (always set for them): the new webhook, its secret already nulled. */
  created?: PrintableWebhook;
  /** For deletes: true when it was already gone. */
  gone?: boolean;
}

/** The run stopped early: `error` is what stopped it (or the abort reason). */
export class SyncStopped extends Error {
  constructor(
    readonly error: unknown,
    /** The step whose request failed or was in flight; undefined when stopped between steps. */
    readonly failed: Step | undefined,
    readonly done: StepDone[],
    /** Steps never started (the failed one excluded). */
    readonly pending: Step[],
    readonly aborted: boolean,
  ) {
    super('sync stopped');
  }
}

export function withoutSecret(w: Webhook): PrintableWebhook {
  return { ...w, secret: null };
}

export async function applySteps(
  steps: readonly Step[],
  ops: SyncOps,
  opts: { signal: AbortSignal; onDone?: (d: StepDone) => void },
): Promise<StepDone[]> {
  const done: StepDone[] = [];
  for (let k = 0; k < steps.length; k++) {
    const step = steps[k]!;
    if (opts.signal.aborted) {
      throw new SyncStopped(opts.signal.reason, undefined, done, steps.slice(k), true);
    }
    let record: StepDone;
    try {
      if (step.op === 'create' || step.op === 'replace-create') {
        const { url, events, secret } = step.item.entry;
        const created = await ops.create({ url, events, secret });
        record = { step, created: withoutSecret(created) };
      } else {
        const uuid = step.op === 'replace-delete' ? step.item.old.uuid : step.item.webhook.uuid;
        const outcome = await ops.remove(uuid);
        record = { step, gone: outcome === 'gone' };
      }
    } catch (e) {
      throw new SyncStopped(e, step, done, steps.slice(k + 1), opts.signal.aborted);
    }
    done.push(record);
    opts.onDone?.(record);
  }
  return done;
}
