// Webhook deliveries as the service makes them: a POST of {"event","uuid","data"} with the
// service's user agent and, when the webhook has a secret, `webhook-signature` = base64
// HMAC-SHA256 of the exact body bytes. They run in the background (the API never waits for a
// receiver), are logged, and a failed one is retried with backoff.
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';
import type { EventName, Meeting } from '../api/types.js';
import { buildDeliveryBody, deliveryHeaders } from '../webhooks/delivery.js';
import { SIGNATURE_HEADER } from '../webhooks/signature.js';
import type { SandboxLogEvent } from './log.js';
import type { SandboxRandom } from './random.js';
import type { WebhookRecord } from './state.js';

export interface DeliveryAttempt {
  attempt: number;
  started_at: string;
  /** The receiver's HTTP status; null when it never answered. */
  status: number | null;
  error: string | null;
}

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
}

export const DEFAULT_RETRY_DELAYS_MS: readonly number[] = [1_000, 5_000, 25_000];
export const DEFAULT_DELIVERY_TIMEOUT_MS = 10_000;

interface AttemptResult {
  status: number | null;
  error: string | null;
}

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
    };
    this.records.push(record);
    if (this.records.length > this.opts.keep)
      this.records.splice(0, this.records.length - this.opts.keep);
    this.pending += 1;
    void this.run(record);
    return record;
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

  private async run(record: DeliveryRecord): Promise<void> {
    try {
      const maxAttempts = this.opts.retryDelaysMs.length + 1;
      for (let attempt = 1; attempt <= maxAttempts && !this.closed; attempt++) {
        if (attempt > 1) {
          const waited = await this.wait(this.opts.retryDelaysMs[attempt - 2]!);
          if (!waited) break;
        }
        const started = this.opts.now();
        const r = await this.attempt(record);
        record.attempts.push({
          attempt,
          started_at: started.toISOString(),
          status: r.status,
          error: r.error,
        });
        const ok = r.status !== null && r.status >= 200 && r.status < 300;
        const outcome = ok
          ? 'delivered'
          : attempt < maxAttempts && !this.closed
            ? 'retrying'
            : 'failed';
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
        });
        if (ok) {
          record.state = 'delivered';
          return;
        }
      }
      record.state = 'failed';
    } finally {
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

  private attempt(record: DeliveryRecord): Promise<AttemptResult> {
    return new Promise((resolve) => {
      let url: URL;
      try {
        url = new URL(record.url);
      } catch {
        resolve({ status: null, error: 'invalid URL' });
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
        finish({ status: null, error: `no answer within ${this.opts.timeoutMs} ms` });
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
          // The status is all we need; read and drop the body so the socket is released.
          res.resume();
          // A client's response always has a status; it counts even when the body is cut short.
          const status = res.statusCode!;
          res.on('end', () => finish({ status, error: null }));
          res.on('error', () => finish({ status, error: null }));
        },
      );
      req.on('error', (e: NodeJS.ErrnoException) => {
        finish({
          status: null,
          error: this.closed ? 'sandbox stopped' : (e.code ?? e.message),
        });
      });
      req.end(bytes);
    });
  }
}
