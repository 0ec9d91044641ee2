// Webhook deliveries as the service makes them: a POST of {"event","uuid","data"} with the
// service's user agent and, when the webhook has a secret, `webhook-signature` = base64
// HMAC-SHA256 of the exact body bytes. They run in the background (the API never waits for a
// receiver), are logged, and a failed one is retried with backoff.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { EventName, Meeting } from '../api/types.js';
import { buildDeliveryBody, deliveryHeaders } from '../domain/webhooks/delivery.js';
import { SIGNATURE_HEADER } from '../domain/webhooks/signature.js';
import { describeFault, type Faults } from './faults.js';
import type { SandboxLogEvent } from './log.js';
import type { SandboxRandom } from './random.js';
import type { WebhookRecord } from './state.js';

export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  /** How long the attempt took, from sending to the end of the answer (or giving up). */
  duration_ms: number;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  error: string | null;
  /** The start of the receiver's answer body (at most RESPONSE_KEEP bytes, as text). */
  response_body: string | null;
  /** The synthetic fault this attempt met (faults.ts), e.g. "timeout"; null when none. */
  fault: string | null;
  /** True for an attempt asked for by a resend (the console, the control endpoint). */
  resend: boolean;
}

/** How much of each answer's body is kept for the console. */
export const RESPONSE_KEEP = 2048;

export interface DeliveryRecord {
  id: number;
  event: EventName;
  notification_uuid: string;
  webhook_uuid: string;
  meeting_uuid: string;
  url: string;
  signed: boolean;
  /** The exact body sent, so a test can check the signature over the same bytes. */
  body: string;
  headers: Record<string, string>;
  state: 'pending' | 'delivered' | 'failed';
  attempts: DeliveryAttempt[];
  /** When the next retry is due, while one is waiting; else null. */
  next_retry_at: string | null;
}

export interface DeliveryOptions {
  /** `user-agent` of every delivery: the service's name. */
  serviceName: string;
  /** Waits before each retry; its length is the number of retries. */
  retryDelaysMs: readonly number[];
  /** How long one attempt may take before it counts as failed. */
  timeoutMs: number;
  /** How many delivery records to keep for GET /_sandbox/deliveries. */
  keep: number;
  log: (e: SandboxLogEvent) => void;
  /** Notification UUIDs (seeded or not). */
  random: SandboxRandom;
  /** The clock of attempt times (the sandbox's: seeded or real). */
  now: () => Date;
  /** Faults to apply to attempts (none when absent). */
  faults?: Faults;
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000];
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

/** What one attempt came to: the fields of its DeliveryAttempt that the sending decides. */
type AttemptResult = Pick<DeliveryAttempt, 'status' | 'error' | 'response_body' | 'fault'>;

export class Deliveries {
  readonly records: DeliveryRecord[] = [];
  private nextId = 1;
  private pending = 0;
  private waiters: Array<() => void> = [];
  /** Callers waiting for one delivery to be delivered or given up. */
  private readonly settledWaiters = new Map<DeliveryRecord, Array<() => void>>();
  /** Retry waits in progress; close() ends them early with `false`. */
  private readonly timers = new Set<{ timer: NodeJS.Timeout; resolve: (go: boolean) => void }>();
  private readonly controllers = new Set<AbortController>();
  private readonly listeners = new Set<(record: DeliveryRecord) => void>();
  private closed = false;

  constructor(private readonly opts: DeliveryOptions) {}

  /** Queues one delivery of `event` to `webhook` and returns at once. */
  enqueue(webhook: WebhookRecord, event: EventName, meeting: Meeting): DeliveryRecord {
    const { uuid: notificationUuid, body: bytes } = buildDeliveryBody(event, meeting, {
      uuid: this.opts.random.uuid(),
    });
    const headers = deliveryHeaders(bytes, webhook.secret, this.opts.serviceName);
    const signed = headers[SIGNATURE_HEADER] !== undefined;
    const body = bytes.toString('utf8');
    const record: DeliveryRecord = {
      id: this.nextId++,
      event,
      notification_uuid: notificationUuid,
      webhook_uuid: webhook.uuid,
      meeting_uuid: meeting.uuid,
      url: webhook.url,
      signed,
      body,
      headers: Object.fromEntries(
        Object.entries(headers).filter((e): e is [string, string] => e[1] !== undefined),
      ),
      state: 'pending',
      attempts: [],
      next_retry_at: null,
    };
    this.records.push(record);
    if (this.records.length > this.opts.keep)
      this.records.splice(0, this.records.length - this.opts.keep);
    this.pending += 1;
    this.updated(record);
    void this.run(record);
    return record;
  }

  /** The record with this id, while it is kept. */
  get(id: number): DeliveryRecord | undefined {
    // Ids grow by one and records are dropped from the front: the index follows from the id.
    const first = this.records[0];
    return first ? this.records[id - first.id] : undefined;
  }

  /**
   * Sends a settled delivery once more (same body, same signature), as one more attempt of the
   * same record; returns false while it is still pending (its retries are not over).
   */
  resend(record: DeliveryRecord): boolean {
    if (record.state === 'pending' || this.closed) return false;
    record.state = 'pending';
    this.pending += 1;
    this.updated(record);
    void this.run(record, true);
    return true;
  }

  /** Calls `fn` after every change of a record (queued, attempted, settled); returns an off. */
  onUpdate(fn: (record: DeliveryRecord) => void): () => void {
    this.listeners.add(fn);
    return () => this.listeners.delete(fn);
  }

  /** Resolves once no delivery is pending (all delivered or given up). */
  idle(): Promise<void> {
    if (this.pending === 0) return Promise.resolve();
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  /** Resolves once `record` is delivered or given up (at once when it already is). */
  settled(record: DeliveryRecord): Promise<DeliveryRecord> {
    if (record.state !== 'pending') return Promise.resolve(record);
    return new Promise((resolve) => {
      const list = this.settledWaiters.get(record) ?? [];
      list.push(() => resolve(record));
      this.settledWaiters.set(record, list);
    });
  }

  /** Stops retries and in-flight attempts; what was pending is marked failed. */
  close(): void {
    this.closed = true;
    for (const t of this.timers) {
      clearTimeout(t.timer);
      t.resolve(false);
    }
    this.timers.clear();
    for (const c of this.controllers) c.abort();
  }

  private async run(record: DeliveryRecord, resend = false): Promise<void> {
    try {
      // A resend is one attempt; a delivery the service makes is retried with backoff.
      const maxAttempts = resend ? 1 : this.opts.retryDelaysMs.length + 1;
      for (let i = 1; i <= maxAttempts && !this.closed; i++) {
        if (i > 1) {
          const delay = this.opts.retryDelaysMs[i - 2]!;
          record.next_retry_at = new Date(this.opts.now().getTime() + delay).toISOString();
          this.updated(record);
          const waited = await this.wait(delay);
          record.next_retry_at = null;
          if (!waited) break;
        }
        const attempt = record.attempts.length + 1;
        const started = this.opts.now();
        const t0 = performance.now();
        const r = await this.attempt(record);
        const ok = r.status !== null && r.status >= 200 && r.status < 300;
        const outcome = ok ? 'delivered' : i < maxAttempts && !this.closed ? 'retrying' : 'failed';
        record.attempts.push({
          attempt,
          started_at: started.toISOString(),
          duration_ms: Math.round(performance.now() - t0),
          status: r.status,
          error: r.error,
          response_body: r.response_body,
          fault: r.fault,
          resend,
        });
        if (ok) record.state = 'delivered';
        else if (outcome === 'failed') record.state = 'failed';
        this.opts.log({
          type: 'delivery',
          event: record.event,
          url: record.url,
          webhookUuid: record.webhook_uuid,
          notificationUuid: record.notification_uuid,
          attempt,
          status: r.status ?? undefined,
          error: r.error ?? undefined,
          outcome,
          ...(r.fault === null ? {} : { fault: r.fault }),
        });
        this.updated(record);
        if (ok) return;
      }
      record.state = 'failed';
    } finally {
      record.next_retry_at = null;
      if (record.state === 'pending') record.state = 'failed';
      this.updated(record);
      const settled = this.settledWaiters.get(record) ?? [];
      this.settledWaiters.delete(record);
      for (const w of settled) w();
      this.pending -= 1;
      if (this.pending === 0) {
        const ws = this.waiters;
        this.waiters = [];
        for (const w of ws) w();
      }
    }
  }

  private updated(record: DeliveryRecord): void {
    for (const fn of this.listeners) fn(record);
  }

  private wait(ms: number): Promise<boolean> {
    // Called right after run() checked `closed`: a close() from here on ends the wait early.
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.timers.delete(entry);
        resolve(true);
      }, ms);
      const entry = { timer, resolve };
      this.timers.add(entry);
    });
  }

  /** One attempt, through the fault that applies to this webhook, if any. */
  private async attempt(record: DeliveryRecord): Promise<AttemptResult> {
    const fault = this.opts.faults?.takeDelivery(record.webhook_uuid);
    if (!fault) return this.send(record);
    const named = `${describeFault(fault)} (synthetic fault)`;
    if (fault.type === 'status') {
      return { status: fault.status, error: null, response_body: null, fault: named };
    }
    if (fault.type === 'timeout') {
      // As a receiver that never answers: the whole timeout passes, nothing is sent.
      const waited = await this.wait(this.opts.timeoutMs);
      return {
        status: null,
        error: waited ? `no answer within ${this.opts.timeoutMs} ms` : 'sandbox stopped',
        response_body: null,
        fault: named,
      };
    }
    if (!(await this.wait(fault.ms))) {
      return { status: null, error: 'sandbox stopped', response_body: null, fault: named };
    }
    return { ...(await this.send(record)), fault: named };
  }

  private send(record: DeliveryRecord): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(record.url);
      } catch {
        resolve({ status: null, error: 'invalid URL', response_body: null, fault: null });
        return;
      }
      const controller = new AbortController();
      this.controllers.add(controller);
      const bytes = Buffer.from(record.body, 'utf8');
      let settled = false;
      const finish = (r: AttemptResult) => {
        if (settled) return;
        settled = true;
        clearTimeout(timer);
        this.controllers.delete(controller);
        resolve(r);
      };
      const timer = setTimeout(() => {
        controller.abort();
        finish({
          status: null,
          error: `no answer within ${this.opts.timeoutMs} ms`,
          response_body: null,
          fault: null,
        });
      }, this.opts.timeoutMs);
      const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
      const req = send(
        url,
        {
          method: 'POST',
          headers: { ...record.headers, 'content-length': String(bytes.length) },
          signal: controller.signal,
          agent: false,
        },
        (res: IncomingMessage) => {
          // The status decides; the start of the body is kept for the console, the rest read
          // and dropped so the socket is released.
          const kept: Buffer[] = [];
          let size = 0;
          res.on('data', (chunk: Buffer) => {
            if (size < RESPONSE_KEEP) kept.push(chunk.subarray(0, RESPONSE_KEEP - size));
            size += chunk.length;
          });
          // A client's response always has a status; it counts even when the body is cut short.
          const status = res.statusCode!;
          const done = () =>
            finish({
              status,
              error: null,
              response_body: Buffer.concat(kept).toString('utf8'),
              fault: null,
            });
          res.on('end', done);
          res.on('error', done);
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        finish({
          status: null,
          error: this.closed ? 'sandbox stopped' : (e.code ?? e.message),
          response_body: null,
          fault: null,
        });
      });
      req.end(bytes);
    });
  }
}
