// The webhook listener of `sched webhooks listen`: it owns the loop — the receiver, what is known
// of each delivery, counting (--count), forwarding, recording, the --register webhook and the
// clean-up — and says what happens as typed events (a delivery arrived, its forwards, it is
// settled) and one-line notes. Whoever drives it (the command, a test) configures it, renders
// the events and reads the summary it returns; nothing here knows about a terminal.
// (As stripe-cli's `listen.go` fills a config and `proxy.Run` owns the loop.)
import type { IncomingMessage, ServerResponse } from 'node:http';
import { addAbortListener } from 'node:events';
import type { EventName, Webhook } from '../../../api/types.js';
import { messageOf, whenAborted } from '../../../errors.js';
import { diagnoseSignature, likelyCause, NO_KNOWN_CAUSE, type Diagnosis } from '../signature.js';
import { SeenNotifications } from './dedupe.js';
import {
  forwardDelivery,
  forwardOk,
  targetsFor,
  type ForwardReport,
  type ForwardTarget,
} from './forward.js';
import { captureOf, type CaptureFile } from './capture.js';
import {
  deliveryRecord,
  signatureHeader,
  signatureVerdict,
  type DeliveryRecord,
  type Verdict,
} from './record.js';
import { ListenerWebhook, type WebhookApi } from './register.js';
import { accountCommand, type Invocation } from '../../../text/hints.js';
import { answerNonDelivery, startReceiver, type Busy, type Receiver } from './receiver.js';
import { NoteLimiter } from './notes.js';
import { replayOneHint } from './hints.js';

export interface ListenerConfig {
  port: number;
  host: string;
  /** The secret deliveries are verified with (a generated one with --register). */
  secret: string | undefined;
  /** --event: only these are kept (shown, counted, forwarded); undefined: every event. */
  kept: readonly EventName[] | undefined;
  forwardTo: readonly ForwardTarget[];
  /** --forward-unverified. */
  forwardAll: boolean;
  /** --count: stop after this many counted deliveries. */
  limit: number | undefined;
  /** --max-time in seconds. */
  maxTimeS: number | undefined;
  capture: CaptureFile | undefined;
  /** --record-unverified. */
  recordUnverified: boolean;
  /** --register: the webhook to create for the listener's lifetime, and its events. */
  register: { url: string; events: EventName[]; api: () => Promise<WebhookApi> } | undefined;
  /** The flags the commands it suggests keep (--profile, --base-url). */
  invocation?: Invocation;
  timeoutMs: number;
  /** The environment, for the proxy variables (HTTPS_PROXY, NO_PROXY) forwards honour. */
  env?: Record<string, string | undefined>;
  /** The driver's interrupt (Ctrl-C, SIGTERM): stops everything at once. */
  signal: AbortSignal;
  /** Notification uuids remembered per kind, for duplicates; default SEEN_LIMIT. */
  seenLimit?: number;
}

/** What every event of one delivery carries: the delivery, and what its line shows. */
interface Heading {
  record: DeliveryRecord;
  receivedAt: Date;
  /** When a duplicate's notification was first seen. */
  firstAt: string | undefined;
  /** True when forwards (or a refusal to forward) follow: its lines come at `forwarded`/`settled`. */
  forwarding: boolean;
}

/** What a driver renders, in the order it happens for each delivery. */
export type ListenerEvent =
  | ({ kind: 'delivery' } & Heading)
  | ({ kind: 'forwarded'; reports: ForwardReport[] } & Heading)
  | ({
      kind: 'settled';
      forwards?: ForwardReport[];
      notForwarded?: 'invalid' | 'missing';
    } & Heading);

export interface ListenerHooks {
  /** A delivery's event; awaited (stdout's back-pressure), deliveries overlapping. */
  event(e: ListenerEvent): Promise<void> | void;
  /** A one-line note for stderr (per-request notes come here already throttled). */
  note(line: string): void;
}

export type StopReason = 'stopped' | 'count' | 'max-time';

export interface ListenerSummary {
  reason: StopReason;
  /** Kept deliveries accepted (answered 200 and shown). */
  count: number;
  /** Those that counted toward --count: with a secret, only verified ones. */
  counted: number;
  /** Deliveries of other events than --event keeps. */
  skipped: number;
  /** Deliveries no forward took (their uuids). */
  unforwarded: string[];
  /** The URLs those deliveries were to reach (the first target of each), once each. */
  unforwardedTo: string[];
  registration: ListenerWebhook;
}

/** What is known of a delivery the moment it arrives (no I/O). */
interface Arrival {
  receivedAt: Date;
  header: string | undefined;
  signature: Verdict;
  diagnoses: Diagnosis[];
  record: DeliveryRecord;
  isKept: boolean;
  counts: boolean;
}

export class Listener {
  /** Ends everything at once (Ctrl-C/SIGTERM, stdout gone): forwards under way stop too. */
  private readonly hard = new AbortController();
  /** Stops listening; deliveries received are then handled to the end before it stops. */
  private readonly end = new AbortController();
  private readonly seen: SeenNotifications;
  private readonly notes: NoteLimiter;
  private readonly inFlight = new Set<Promise<void>>();
  private readonly busySaid = new Set<string>();
  private readonly registration: ListenerWebhook;
  private receiver: Receiver | undefined;
  private secret: string | undefined;
  private count = 0;
  private counted = 0;
  private skipped = 0;
  private readonly unforwarded: string[] = [];
  private readonly unforwardedTo = new Set<string>();
  private warnedUnchecked = false;
  private captureSaid = false;
  private readonly unlink = addAbortListener(this.hard.signal, () => this.end.abort('stopped'));
  private unlinkSignal: Disposable | undefined;

  constructor(
    private readonly config: ListenerConfig,
    private readonly hooks: ListenerHooks,
  ) {
    this.secret = config.secret;
    this.seen = new SeenNotifications(config.seenLimit);
    this.unlinkSignal = addAbortListener(config.signal, () => this.hard.abort());
    this.notes = new NoteLimiter((line) => hooks.note(line));
    this.registration = new ListenerWebhook(
      () => config.register!.api(),
      (line) => hooks.note(line),
      config.invocation,
    );
  }

  /** True once it is stopping (or stopped). */
  get stopping(): boolean {
    return this.end.signal.aborted;
  }

  /** Stops at once: forwards under way are cut short (Ctrl-C, SIGTERM, stdout gone). */
  interrupt(): void {
    this.hard.abort();
  }

  /** Listens; rejects with the listen error (EADDRINUSE, …). Returns the port listened on. */
  async listen(): Promise<number> {
    this.receiver = await startReceiver({
      port: this.config.port,
      host: this.config.host,
      early: (req, res) =>
        answerNonDelivery(req, res, (line) => this.notes.note('requests answered 405', line)),
      onBody: (req, body, res) => this.onBody(req, body, res),
      onTooLarge: ({ size, declared, maxBytes }) =>
        this.notes.note(
          'bodies refused with 413',
          declared
            ? `note: refused a ${size}-byte body (over ${maxBytes} bytes) with 413`
            : `note: refused a body over ${maxBytes} bytes with 413`,
        ),
      // Whatever a request holds, the listener goes on: it was answered 500.
      onError: (e) =>
        this.notes.note(
          'requests that could not be handled',
          `error: could not handle a request (answered 500; still listening): ${messageOf(e)}`,
        ),
      onBusy: (b) => this.onBusy(b),
    });
    return this.receiver.port;
  }

  /**
   * --register: creates the webhook (unless stopping already). Returns it, and the secret the
   * listener now verifies with (the service may have chosen it).
   */
  async register(): Promise<Webhook | undefined> {
    const r = this.config.register;
    if (!r || this.stopping) return undefined;
    const webhook = await this.registration.register({
      url: r.url,
      events: r.events,
      secret: this.secret,
      stop: this.end.signal,
      interrupt: this.config.signal,
    });
    if (typeof webhook.secret === 'string' && webhook.secret !== '') this.secret = webhook.secret;
    return webhook;
  }

  /** The secret deliveries are verified with now. */
  get verifyingWith(): string | undefined {
    return this.secret;
  }

  /** Runs until stopped (the signal, --count, --max-time, interrupt()), then cleans up. */
  async run(): Promise<ListenerSummary> {
    let timer: NodeJS.Timeout | undefined;
    if (this.config.maxTimeS !== undefined && !this.stopping) {
      timer = setTimeout(() => this.end.abort('max-time'), this.config.maxTimeS * 1000);
    }
    try {
      await whenAborted(this.end.signal);
    } finally {
      clearTimeout(timer);
    }
    await this.close();
    return {
      reason: this.end.signal.reason as StopReason,
      count: this.count,
      counted: this.counted,
      skipped: this.skipped,
      unforwarded: this.unforwarded,
      unforwardedTo: [...this.unforwardedTo],
      registration: this.registration,
    };
  }

  /**
   * Stops listening, lets deliveries under way finish, closes the recording, deletes the
   * --register webhook; safe to call twice, and on every way out (a driver's failure too).
   */
  async close(): Promise<void> {
    this.end.abort('stopped');
    await this.receiver?.close();
    await Promise.allSettled([...this.inFlight]);
    await this.config.capture?.close();
    await this.registration.unregister();
    this.notes.flush();
    this.unlink[Symbol.dispose]();
    this.unlinkSignal?.[Symbol.dispose]();
  }

  private onBusy(b: Busy): void {
    // Said once per kind: a flood must not flood stderr too.
    if (this.busySaid.has(b.kind)) return;
    this.busySaid.add(b.kind);
    this.hooks.note(
      b.kind === 'connections'
        ? `note: over ${b.limit} connections at once; answering 503 to more (senders retry later)`
        : `note: over ${b.limit / 1024 / 1024} MiB of deliveries held at once; answering 503 to more (senders retry later)`,
    );
  }

  private onBody(req: IncomingMessage, body: Buffer, res: ServerResponse): Promise<void> | void {
    const d = this.arrive(req, body);
    const { limit } = this.config;
    if (d.isKept && limit !== undefined && this.counted >= limit) {
      // --count is reached and the listener is stopping: the sender should try again later
      // rather than have a delivery answered 200 and never shown.
      res.writeHead(503, { 'content-type': 'text/plain', 'retry-after': '5' });
      res.end('the listener is stopping\n');
      return;
    }
    // Answer first: the sender should never wait for our printing or forwarding.
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"received":true}');
    if (d.isKept) this.count += 1;
    if (d.counts) this.counted += 1;
    const last = d.counts && this.counted === limit;
    const p = this.handle(req, body, d).catch((e: unknown) => {
      this.notes.note(
        'deliveries that could not be handled',
        `error: could not handle a delivery: ${messageOf(e)}`,
      );
    });
    this.inFlight.add(p);
    void p.finally(() => {
      this.inFlight.delete(p);
      if (last) this.end.abort('count');
    });
    // Its bytes stay counted against the receiver's bound until it is handled.
    return p;
  }

  private arrive(req: IncomingMessage, body: Buffer): Arrival {
    const receivedAt = new Date();
    const secret = this.secret;
    const header = signatureHeader(req);
    const signature = signatureVerdict(secret, header, body);
    // The likely cause goes on the line (and into --json); any other lead goes to stderr.
    const diagnoses =
      signature === 'invalid' && secret && header !== undefined
        ? diagnoseSignature({ secret, received: header, payload: body })
        : [];
    const signatureReason =
      signature === 'invalid'
        ? likelyCause(
            diagnoses,
            { kept: true, bytes: body.length },
            listenNoKnownCause(this.config.invocation ?? {}),
          )
        : undefined;
    const record = deliveryRecord(req, body, {
      receivedAt,
      signature,
      signatureReason,
      duplicate: false,
    });
    const { kept } = this.config;
    const isKept = !kept || kept.some((e) => e === record.event);
    // With a secret, a forged request must not end `--count` (nor stand for a real delivery).
    const counts = isKept && (signature === 'valid' || signature === 'unchecked');
    return { receivedAt, header, signature, diagnoses, record, isKept, counts };
  }

  private async handle(req: IncomingMessage, body: Buffer, d: Arrival): Promise<void> {
    const targets = d.isKept ? targetsFor(this.config.forwardTo, d.record.event ?? undefined) : [];
    const unverified = d.signature === 'invalid' || d.signature === 'missing';
    const forwards = targets.length > 0 && (!unverified || this.config.forwardAll);
    // A forwarded delivery is recorded once its forwards are done, with their outcome (what
    // `events replay --failed` picks by); any other at once.
    if (!forwards) await this.record(req, body, d);
    if (!d.isKept) {
      // Answered 200 already, like every delivery; neither shown nor forwarded.
      this.skipped += 1;
      return;
    }
    const { record, receivedAt, signature } = d;
    const { duplicate, firstAt } = this.seen.check(
      record.uuid ?? undefined,
      receivedAt,
      signature === 'valid',
    );
    record.duplicate = duplicate;
    const h: Heading = { record, receivedAt, firstAt, forwarding: targets.length > 0 };
    await this.hooks.event({ kind: 'delivery', ...h });
    this.leads(d);
    if (targets.length === 0) return this.hooks.event({ kind: 'settled', ...h });
    if ((signature === 'invalid' || signature === 'missing') && !this.config.forwardAll) {
      return this.hooks.event({ kind: 'settled', ...h, notForwarded: signature });
    }
    const reports = await forwardDelivery(
      targets,
      { body, headers: req.headers },
      { timeoutMs: this.config.timeoutMs, signal: this.hard.signal, env: this.config.env },
    );
    record.forward = reports[0];
    await this.record(req, body, d, reports);
    await this.hooks.event({ kind: 'forwarded', ...h, reports });
    if (!reports.some(forwardOk) && !this.hard.signal.aborted) {
      this.unforwarded.push(record.uuid ?? '');
      this.unforwardedTo.add(targets[0]!.url.toString());
      this.hooks.note(this.unforwardedNote(record, targets[0]!));
    }
    // Every target's report, in the order given (`forward` keeps the first, as before).
    await this.hooks.event({ kind: 'settled', ...h, forwards: reports });
  }

  /** Nothing reached the app: how to send it again once the app is fixed. */
  private unforwardedNote(record: DeliveryRecord, target: ForwardTarget): string {
    const capture = this.config.capture;
    return capture && record.uuid
      ? `  not delivered to the app; once fixed: ${replayOneHint(capture.file, record.uuid, target.url.toString())}`
      : `  not delivered to the app${capture ? '' : ' (record deliveries with --record <file> to replay them later)'}`;
  }

  /** The diagnoses beside the line's cause, and the hint that deliveries are signed. */
  private leads(d: Arrival): void {
    const leads = d.diagnoses.filter((x) => !x.skipped && x.reason !== d.record.signatureReason);
    if (leads.length > 0) {
      this.notes.note(
        'leads on invalid signatures',
        leads.map((x) => `  ${x.confirmed ? 'cause' : 'check'}: ${x.reason}`),
      );
    }
    if (d.signature === 'unchecked' && d.header !== undefined && !this.warnedUnchecked) {
      this.warnedUnchecked = true;
      this.hooks.note(
        'note: deliveries are signed; give --secret (or SCHED_WEBHOOK_SECRET) to check them',
      );
    }
  }

  /**
   * --record: every delivery received. With a secret, an unverified one leaves its headers
   * and verdict, not its body (anyone can send bodies; a recording must not fill with them),
   * unless --record-unverified asks for them.
   */
  private async record(
    req: IncomingMessage,
    body: Buffer,
    d: Arrival,
    forwards?: ForwardReport[],
  ): Promise<void> {
    const capture = this.config.capture;
    if (!capture) return;
    const { record, signature } = d;
    const keepBody = !this.secret || signature === 'valid' || this.config.recordUnverified;
    await capture.append(
      captureOf(
        { method: record.method, path: record.path, rawHeaders: req.rawHeaders, body },
        {
          receivedAt: d.receivedAt,
          event: record.event,
          uuid: record.uuid,
          signature,
          signatureReason: record.signatureReason,
          omitBody: keepBody ? undefined : `signature ${signature}`,
          forwards,
        },
      ),
    );
    if (capture.failed !== undefined && !this.captureSaid) {
      this.captureSaid = true;
      // A recording that reached its cap is a note; one that cannot be written (a full disk)
      // loses data the user asked for: the listener stops, and the command says it (capture.error).
      if (capture.full)
        this.hooks.note(
          `note: stopped recording to ${capture.file}: ${capture.failed}; no longer recording`,
        );
      else this.interrupt();
    }
  }
}

/**
 * The likely cause on a delivery's line when no common mistake explains an invalid signature:
 * the usual reason a listener sees one is a webhook created with another secret (a generated
 * one, or before SCHED_WEBHOOK_SECRET was set).
 */
export function listenNoKnownCause(inv: Invocation): string {
  return `${NO_KNOWN_CAUSE}; the webhook may have been created with another secret: check one with \`sched sig verify --secret <it>\`, or re-create the webhook with \`${accountCommand(inv)`sched webhooks add`}\` while SCHED_WEBHOOK_SECRET is set`;
}
