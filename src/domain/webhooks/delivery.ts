// The pure pieces of a delivery as the service sends it (a JSON POST, user-agent = the
// service's name, `webhook-signature` when signed): the body bytes and the
// headers. `sched events send` and the sandbox both use these, so what a receiver sees from
// either is the same; the bytes are serialised once and signed as they are sent.
import { randomUUID } from 'node:crypto';
import { type DeliveryPayload, type EventName, type Meeting } from '../../api/types.js';
import { SIGNATURE_HEADER, signPayload } from './signature.js';

/** The newer service's user agent; the older one sent "Harmonizely". */
export const DEFAULT_SERVICE_NAME = 'SimplyMeet.me';

export interface DeliveryHeaders {
  'content-type': string;
  'user-agent': string;
  'webhook-signature'?: string;
  [name: string]: string | undefined;
}

/**
 * Headers of a delivery carrying `body`: content type, the fixed user agent (the service's
 * name), and `webhook-signature` (base64 HMAC-SHA256 of the exact body) only when there is a
 * secret — a webhook with no (or an empty) secret gets unsigned deliveries.
 */
export function deliveryHeaders(
  body: Uint8Array,
  secret: string | null | undefined,
  serviceName: string = DEFAULT_SERVICE_NAME,
): DeliveryHeaders {
  const headers: DeliveryHeaders = {
    'content-type': 'application/json',
    'user-agent': serviceName,
  };
  if (secret) headers[SIGNATURE_HEADER] = signPayload(secret, body);
  return headers;
}

export interface DeliveryBody {
  /** The notification uuid (fresh for every delivery, also for a redelivery of the same meeting). */
  uuid: string;
  payload: DeliveryPayload;
  /** The exact bytes to send and sign. */
  body: Buffer;
}

/** `{"event","uuid","data"}` with a fresh v4 notification uuid, serialised once to bytes. */
export function buildDeliveryBody(
  event: EventName,
  meeting: Meeting,
  opts: { uuid?: string } = {},
): DeliveryBody {
  const payload: DeliveryPayload = { event, uuid: opts.uuid ?? randomUUID(), data: meeting };
  return { uuid: payload.uuid, payload, body: Buffer.from(JSON.stringify(payload), 'utf8') };
}

/** What a receiver can tell about a delivery body, tolerating anything (spec fields may be missing). */
export interface DeliverySummary {
  /** False when the body is not a JSON object. */
  json: boolean;
  payload: unknown;
  event: string | undefined;
  /** Notification uuid. */
  uuid: string | undefined;
  meetingUuid: string | undefined;
  inviteeName: string | undefined;
  inviteeEmail: string | undefined;
  start: string | undefined;
}

function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

function obj(v: unknown): Record<string, unknown> | undefined {
  return v !== null && typeof v === 'object' && !Array.isArray(v)
    ? (v as Record<string, unknown>)
    : undefined;
}

/** Parses a received body without trusting its shape: unknown fields and odd types are fine. */
export function summarizeDelivery(body: Uint8Array): DeliverySummary {
  let payload: unknown;
  try {
    payload = JSON.parse(Buffer.from(body).toString('utf8')) as unknown;
  } catch {
    payload = undefined;
  }
  const top = obj(payload);
  const data = obj(top?.data);
  const invitee = obj(data?.invitee);
  return {
    json: top !== undefined,
    payload,
    event: str(top?.event),
    uuid: str(top?.uuid),
    meetingUuid: str(data?.uuid),
    inviteeName: str(invitee?.full_name) ?? str(invitee?.first_name),
    inviteeEmail: str(invitee?.email),
    start: str(data?.scheduled_at),
  };
}
