// The public booking page of a single-use link, {public_url}/s/<code>: what the invitee sees.
// A small form while the link is valid; "already used" once a meeting was booked through it.
// No API key here — the page is public, like the service's.
import type { Meeting } from '../api/types.js';
import { HttpError } from './http.js';
import { bookLink, DEFAULT_INVITEE, defaultStart, wallClock, zonedTimeToUtc } from './meetings.js';
import type { Reply, Route } from './router.js';
import type { SandboxCore } from './core.js';
import type { LinkRecord } from './state.js';
import { isoWithOffset } from './seed.js';

/**
 * HTML text for any value: the state file is a user-editable JSON file, so a field typed as a
 * number (`duration`) or a string may hold anything. Every value on the page goes through here.
 */
export function esc(value: unknown): string {
  const s = value === null || value === undefined ? '' : String(value);
  return s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );
}

function layout(title: string, body: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${esc(title)}</title>
<style>
body{font-family:system-ui,sans-serif;max-width:34rem;margin:3rem auto;padding:0 1rem;color:#1d2330}
h1{font-size:1.4rem}label{display:block;margin-top:.8rem;font-weight:600}
input,textarea{width:100%;padding:.4rem;font:inherit;box-sizing:border-box}
input[type=checkbox]{width:auto}button{margin-top:1rem;padding:.5rem 1.2rem;font:inherit}
.error{color:#b00020}.muted{color:#667}.badge{font-size:.8rem;color:#667}
</style>
</head>
<body>
<p class="badge">sched sandbox · not a real booking</p>
${body}
</body>
</html>
`;
}

function notFoundPage(): Reply {
  return {
    status: 404,
    html: layout(
      'Link not found',
      '<h1>This link does not exist</h1><p>Check the address, or ask for a new link.</p>',
    ),
  };
}

function usedPage(): Reply {
  return {
    status: 410,
    html: layout(
      'Link already used',
      '<h1>This link has already been used</h1><p>A single-use link books one meeting only. Ask for a new link.</p>',
    ),
  };
}

/** "2026-12-01T10:00" on the invitee's wall clock, for a datetime-local input. */
function localInputValue(d: Date, timeZone: string): string {
  const w = wallClock(d, timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}`;
}

function formPage(
  core: SandboxCore,
  link: LinkRecord,
  values: Record<string, string>,
  errors: Record<string, string[]>,
): string {
  const type = core.state.meetingTypesByUuid.get(link.meeting_type_uuid);
  const tz = values.timezone || DEFAULT_INVITEE.timezone;
  let at = values.at;
  if (!at) {
    try {
      at = localInputValue(defaultStart(core.now(), tz), tz);
    } catch {
      at = '';
    }
  }
  const messages = (v: string[]) => v.map(esc).join(' ');
  const err = (k: string) => (errors[k] ? `<p class="error">${messages(errors[k])}</p>` : '');
  const general = Object.entries(errors)
    .filter(([k]) => !['name', 'email', 'at', 'timezone', 'notes'].includes(k))
    .map(([, v]) => `<p class="error">${messages(v)}</p>`)
    .join('');
  return layout(
    `Book: ${type?.name ?? 'meeting'}`,
    `<h1>${esc(type?.name ?? 'Meeting')}</h1>
<p class="muted">${type ? `${esc(type.duration)} min` : ''}${type?.location_label ? ` · ${esc(type.location_label)}` : ''}</p>
${type?.description ? `<p>${esc(type.description)}</p>` : ''}
${general}
<form method="post" action="/s/${encodeURIComponent(String(link.code))}">
<label for="name">Your name</label>
<input id="name" name="name" required maxlength="255" value="${esc(values.name ?? '')}" placeholder="${esc(DEFAULT_INVITEE.name)}">${err('name')}
<label for="email">Email</label>
<input id="email" name="email" type="email" required value="${esc(values.email ?? '')}" placeholder="${esc(DEFAULT_INVITEE.email)}">${err('email')}
<label for="at">Start (your local time)</label>
<input id="at" name="at" type="datetime-local" required value="${esc(at)}">${err('at')}
<label for="timezone">Your time zone</label>
<input id="timezone" name="timezone" required value="${esc(tz)}">${err('timezone')}
<label for="notes">What would you like to discuss?</label>
<textarea id="notes" name="notes" rows="3">${esc(values.notes ?? '')}</textarea>${err('notes')}
<label><input type="checkbox" name="privacy" value="1" required> I agree to the privacy policy</label>
<button type="submit">Book meeting</button>
</form>
<script>
// Prefill the browser's own time zone when the field still has the default.
var tz = document.getElementById('timezone');
try { if (tz.value === 'UTC') tz.value = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC'; } catch (e) {}
</script>`,
  );
}

function bookedPage(meeting: Meeting): string {
  return layout(
    'Booked',
    `<h1>You are booked</h1>
<p><strong>${esc(meeting.event_type.name)}</strong> with ${esc(meeting.invitee.full_name)}</p>
<p>${esc(meeting.pretty_scheduled_at_in_invitee_timezone)} (${esc(meeting.invitee.timezone)})</p>
<p class="muted">Meeting ${esc(meeting.uuid)}. A confirmation would be sent to ${esc(meeting.invitee.email)}.</p>`,
  );
}

const LOCAL_INPUT = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::\d{2})?$/;

/**
 * The form's start: a datetime-local value on the invitee's clock (or a full ISO time). A
 * time no calendar has (2026-13-45T10:00, 24:00) is passed on as typed, for the booking to
 * refuse, rather than rolled over into another date.
 */
function formStart(value: string, timeZone: string): string {
  const m = LOCAL_INPUT.exec(value.trim());
  if (!m) return value;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const probe = new Date(Date.UTC(year, month - 1, day, hour, minute));
  if (
    probe.getUTCMonth() !== month - 1 ||
    probe.getUTCDate() !== day ||
    probe.getUTCHours() !== hour ||
    probe.getUTCMinutes() !== minute
  ) {
    return value;
  }
  try {
    return isoWithOffset(zonedTimeToUtc({ year, month, day, hour, minute }, timeZone));
  } catch {
    return value;
  }
}

export const pageRoutes: Route[] = [
  {
    method: 'GET',
    path: '/s/:code',
    handle: (core, r) => {
      const link = core.state.links.get(r.params.code!);
      if (!link) return notFoundPage();
      if (link.used_at !== null) return usedPage();
      return { status: 200, html: formPage(core, link, {}, {}) };
    },
  },
  {
    method: 'POST',
    path: '/s/:code',
    body: 'form',
    handle: (core, r) => {
      const link = core.state.links.get(r.params.code!);
      if (!link) return notFoundPage();
      if (link.used_at !== null) return usedPage();
      // Form fields are strings (the router's parseFormBody; a field sent twice: the last).
      const values = r.body as Record<string, string>;
      const errors: Record<string, string[]> = {};
      if (values.privacy !== '1') errors.privacy = ['Please agree to the privacy policy.'];
      for (const k of ['name', 'email', 'at', 'timezone']) {
        if (!values[k]?.trim()) errors[k] = ['This value should not be blank.'];
      }
      if (Object.keys(errors).length > 0) {
        return { status: 422, html: formPage(core, link, values, errors) };
      }
      try {
        const { meeting } = bookLink(core, link, {
          name: values.name,
          email: values.email,
          timezone: values.timezone,
          at: formStart(values.at!, values.timezone!),
          notes: values.notes?.trim() ? values.notes : undefined,
        });
        return { status: 200, html: bookedPage(meeting) };
      } catch (e) {
        if (!(e instanceof HttpError)) throw e;
        // 422 names fields: each error beside its field. Otherwise (the link's meeting type
        // was removed from the state file) the reason above the form, not a JSON answer.
        const errs =
          e.status === 422
            ? (e.body.errors as Record<string, string[]>)
            : { booking: ['The meeting type of this link no longer exists. Ask for a new link.'] };
        return { status: e.status, html: formPage(core, link, values, errs) };
      }
    },
  },
];
