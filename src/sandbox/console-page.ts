// The console's page, stylesheet and script (console.ts serves them). Plain HTML, CSS and a
// small script with no build step and nothing fetched from elsewhere: it works offline, reads
// on a narrow window, is usable from the keyboard (native buttons, selects, details), labels
// every control, and puts every value on the page as text (the script uses textContent; the
// one value in the HTML, the key, is escaped).
import { EVENT_NAMES } from '../api/types.js';
import { ACTION_VERBS, actionPath, SANDBOX_ACTIONS } from './actions.js';
import { esc } from './page.js';

/** The actions for the script, with their paths under /_sandbox; dangerous ones last. */
const consoleActions = () =>
  ACTION_VERBS.map((verb) => ({
    ...SANDBOX_ACTIONS[verb],
    path: actionPath(verb).replace('/_sandbox', ''),
  })).sort((a, b) => Number(a.button.danger === true) - Number(b.button.danger === true));

/** The page; `key` is set on a loopback address (the page then needs none typed in). */
export function consoleHtml(o: { key: string | undefined }): string {
  const meta = o.key === undefined ? '' : `<meta name="sandbox-key" content="${esc(o.key)}">\n`;
  return PAGE.replace('KEYMETA', () => meta);
}

const PAGE = String.raw`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
KEYMETA<title>sched sandbox console</title>
<link rel="icon" href="data:,">
<link rel="stylesheet" href="/_console/app.css">
<script src="/_console/app.js" defer></script>
</head>
<body>
<header>
<h1>sched sandbox</h1>
<span class="muted">a local emulator of the scheduling service: nothing here is real</span>
<span id="conn" class="badge pending" role="status" aria-live="polite">connecting…</span>
</header>
<form id="login" hidden>
<h2>API key</h2>
<p>This sandbox listens beyond this machine, so its console asks for its API key first.</p>
<label for="key">API key</label>
<input id="key" name="key" type="password" autocomplete="off" required>
<button type="submit">Open the console</button>
<p id="login-error" class="error" role="alert"></p>
</form>
<main id="app" hidden>
<nav aria-label="Sections"><ul>
<li><a href="#types">Meeting types</a></li><li><a href="#links">Links</a></li><li><a href="#meetings">Meetings</a></li><li><a href="#webhooks">Webhooks</a></li><li><a href="#faults">Faults</a></li><li><a href="#log">Delivery log</a></li>
</ul></nav>
<section id="types" aria-labelledby="types-h"><h2 id="types-h">Meeting types</h2><div id="types-body"></div></section>
<section id="links" aria-labelledby="links-h"><h2 id="links-h">Single-use links</h2><div id="links-body"></div></section>
<section id="meetings" aria-labelledby="meetings-h"><h2 id="meetings-h">Meetings</h2><div id="meetings-body"></div></section>
<section id="webhooks" aria-labelledby="webhooks-h"><h2 id="webhooks-h">Webhooks</h2><div id="webhooks-body"></div></section>
<section id="faults" aria-labelledby="faults-h"><h2 id="faults-h">Faults</h2>
<p class="muted">Synthetic failures for testing a client: the real service's 429 and 5xx bodies are unknown, so these answers are the sandbox's own.</p>
<form id="fault-form" class="row">
<div><label for="fault-target">Where</label><select id="fault-target"><option value="api">API requests</option><option value="delivery">Deliveries</option></select></div>
<div id="fault-route-box"><label for="fault-route">Route</label><input id="fault-route" value="GET /users/me/meeting-types" size="28"></div>
<div id="fault-webhook-box" hidden><label for="fault-webhook">Webhook</label><select id="fault-webhook"></select></div>
<div id="fault-kind-api-box"><label for="fault-kind-api">Answer</label><select id="fault-kind-api"><option value="status">a status</option><option value="reset">reset the connection</option><option value="delay">answer late</option></select></div>
<div id="fault-kind-delivery-box" hidden><label for="fault-kind-delivery">Delivery</label><select id="fault-kind-delivery"><option value="status">fails with a status</option><option value="timeout">times out</option><option value="slow">is slow</option></select></div>
<div id="fault-status-box"><label for="fault-status">Status</label><input id="fault-status" type="number" min="100" max="599" value="429"></div>
<div id="fault-retry-box"><label for="fault-retry">Retry-After (s)</label><input id="fault-retry" type="number" min="0" value="1"></div>
<div id="fault-ms-box" hidden><label for="fault-ms">Milliseconds</label><input id="fault-ms" type="number" min="1" value="2000"></div>
<div><label for="fault-times">Times</label><input id="fault-times" type="number" min="1" value="1"></div>
<button id="fault-add" type="submit">Set fault</button>
<button id="faults-clear" type="button">Clear all faults</button>
</form>
<div id="faults-list"></div>
</section>
<section id="log" aria-labelledby="log-h"><h2 id="log-h">Delivery log <span class="muted">(live)</span></h2>
<div class="row">
<div><label for="filter-event">Filter by event</label><select id="filter-event"></select></div>
<div><label for="filter-webhook">Filter by webhook</label><select id="filter-webhook"></select></div>
<div><label for="filter-meeting">Filter by meeting</label><select id="filter-meeting"></select></div>
</div>
<ol id="log-list" aria-live="polite"></ol>
</section>
</main>
<p id="toast" role="status" aria-live="polite"></p>
</body>
</html>
`;

export const CONSOLE_CSS = String.raw`:root{--fg:#1d2330;--muted:#5b6475;--line:#d5dae3;--bg:#fff;--soft:#f4f6f9;--ok:#0b6b2f;--bad:#a4001a;--pending:#7a5200;--accent:#1f4fbf}
*{box-sizing:border-box}
[hidden]{display:none !important}
body{font-family:system-ui,sans-serif;margin:0;color:var(--fg);background:var(--bg);line-height:1.45}
header{padding:.8rem 1rem;border-bottom:1px solid var(--line);display:flex;flex-wrap:wrap;gap:.4rem 1rem;align-items:baseline}
header h1{font-size:1.2rem;margin:0}
nav ul{list-style:none;margin:0;padding:0;display:flex;flex-wrap:wrap;gap:.2rem .8rem}
main{padding:0 1rem 3rem;max-width:90rem}
section{margin-top:1.6rem}
h2{font-size:1.1rem;margin:0 0 .5rem}h4{font-size:.9rem;margin:.8rem 0 .2rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}
th,td{text-align:left;padding:.3rem .5rem;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:600;color:var(--muted)}
.scroll{overflow-x:auto;position:relative}
code,pre,time{font-family:ui-monospace,SFMono-Regular,Menlo,monospace;font-size:.85em}
pre{background:var(--soft);padding:.6rem;white-space:pre-wrap;overflow-wrap:anywhere;max-height:22rem;overflow:auto;margin:0}
a{color:var(--accent)}
.link-url,.url,time,td code,.nowrap{white-space:nowrap}
.delivery summary .url{display:inline-block;max-width:min(100%,40rem);overflow:hidden;text-overflow:ellipsis;vertical-align:bottom}
.tz{font-size:.8rem}
html{scroll-padding-bottom:3.5rem}
button{font:inherit;padding:.25rem .7rem;border:1px solid #8a94a6;border-radius:4px;background:#fff;color:var(--fg);cursor:pointer}
button:hover{background:var(--soft)}button:disabled{opacity:.5;cursor:default}
button.danger{border-color:var(--bad);color:var(--bad)}button.small{font-size:.8rem;padding:0 .4rem}
input,select{font:inherit;padding:.2rem .3rem;border:1px solid #8a94a6;border-radius:4px;max-width:100%}
:focus-visible{outline:3px solid var(--accent);outline-offset:2px}
label{font-weight:600;margin-right:.3rem}
.muted{color:var(--muted)}.error{color:var(--bad)}.ok{color:var(--ok)}
.badge{display:inline-block;padding:0 .4rem;border-radius:3px;font-size:.8rem;background:var(--soft)}
.badge.ok{color:var(--ok);background:#e4f4ea}.badge.bad{color:var(--bad);background:#fbe6ea}.badge.pending{color:var(--pending);background:#fbf1dc}
.state-canceled{color:var(--bad)}
.actions{display:flex;flex-wrap:wrap;gap:.3rem;align-items:center}
.row{display:flex;flex-wrap:wrap;gap:.5rem 1rem;align-items:center;margin:.4rem 0}
.row>div{display:flex;flex-wrap:wrap;align-items:center;gap:.2rem;max-width:100%;min-width:0}
select{max-width:min(100%,22rem)}
#log-list{list-style:none;padding:0;margin:0}
.delivery{border:1px solid var(--line);border-radius:6px;margin:.4rem 0;padding:.3rem .6rem}
.delivery summary{cursor:pointer}
dl.facts{display:grid;grid-template-columns:max-content minmax(0,1fr);gap:.1rem .8rem;margin:.6rem 0;font-size:.9rem}
dl.facts dt{color:var(--muted)}dl.facts dd{margin:0;min-width:0;white-space:nowrap;overflow-x:auto}
#toast{position:sticky;bottom:0;margin:0;padding:.4rem 1rem;background:var(--bg);border-top:1px solid var(--line);min-height:2rem}
#login{max-width:28rem;margin:3rem auto;padding:0 1rem}
#login input{width:100%;margin:.3rem 0 .8rem}
.sr-only{position:absolute;width:1px;height:1px;padding:0;margin:-1px;overflow:hidden;clip:rect(0,0,0,0);border:0}
@media (max-width:40rem){main{padding:0 .5rem 3rem}th,td{padding:.25rem .3rem}header{padding:.6rem .5rem}}
`;

export const CONSOLE_JS = String.raw`// The sandbox console's script: reads /api/_sandbox/snapshot, follows /api/_sandbox/events
// (server-sent events over fetch, so the key travels in a header, never in a URL) and acts
// through the control endpoints. Every value is put on the page as text (textContent), never
// as HTML.
'use strict';
(function () {
  var EVENTS = ${JSON.stringify(EVENT_NAMES)};
  var ACTIONS = ${JSON.stringify(consoleActions())};
  var meta = document.querySelector('meta[name="sandbox-key"]');
  var key = meta ? meta.getAttribute('content') : sessionStorage.getItem('sched-sandbox-key');
  var snap = null;
  var deliveries = new Map();
  var expanded = new Set();
  var filters = { event: '', webhook: '', meeting: '' };
  /** Long lists show their newest LATEST entries until "Show all" is pressed. */
  var LATEST = 10;
  var showAll = { links: false, meetings: false };
  var TZ = (Intl.DateTimeFormat().resolvedOptions().timeZone || 'local time');

  function $(id) {
    return document.getElementById(id);
  }

  /** An element with attributes (text: its text; on*: listeners) and children. */
  function el(tag, attrs, children) {
    var node = document.createElement(tag);
    Object.keys(attrs || {}).forEach(function (k) {
      var v = attrs[k];
      if (v === undefined || v === null || v === false) return;
      if (k === 'text') node.textContent = String(v);
      else if (k.slice(0, 2) === 'on') node.addEventListener(k.slice(2), v);
      else node.setAttribute(k, v === true ? '' : String(v));
    });
    (children || []).forEach(function (c) {
      if (c === null || c === undefined) return;
      node.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return node;
  }

  function say(text, bad) {
    var t = $('toast');
    t.textContent = text;
    t.className = bad ? 'error' : 'ok';
  }

  function problem(data, status) {
    if (data && data.errors) {
      return Object.keys(data.errors)
        .map(function (k) {
          return [].concat(data.errors[k]).join(' ');
        })
        .join(' ');
    }
    if (data && data.message) return data.detail ? data.message + ' ' + data.detail : data.message;
    return 'HTTP ' + status;
  }

  function api(method, path, body) {
    var headers = { 'x-api-key': key || '' };
    if (body !== undefined) headers['content-type'] = 'application/json';
    return fetch('/api/_sandbox' + path, {
      method: method,
      headers: headers,
      body: body === undefined ? undefined : JSON.stringify(body),
    }).then(function (res) {
      return res.text().then(function (text) {
        var data = null;
        try {
          data = text ? JSON.parse(text) : null;
        } catch (e) {
          data = null;
        }
        if (!res.ok) {
          var err = new Error(problem(data, res.status));
          err.status = res.status;
          throw err;
        }
        return data;
      });
    });
  }

  /** Runs an action from a button: disabled meanwhile, the outcome said in the status line. */
  function act(button, what, run) {
    button.disabled = true;
    return run()
      .then(function (text) {
        say(text || what + ': done.');
        return refresh();
      })
      .catch(function (e) {
        say(what + ' failed: ' + e.message, true);
      })
      .then(function () {
        button.disabled = false;
      });
  }

  /** The sandbox's actions on a link or a meeting (src/sandbox/actions.ts), dangerous ones last. */
  function actionsOn(on) {
    return ACTIONS.filter(function (a) {
      return a.on === on;
    });
  }

  /** An action's button; what completes its label for a screen reader ("Cancel the meeting with …"). */
  function actionButton(a, what, run) {
    var b = el('button', { type: 'button', class: a.button.danger ? 'danger' : undefined, 'aria-label': a.button.label + ' ' + what, text: a.button.label });
    b.addEventListener('click', function () {
      act(b, a.button.label, run);
    });
    return b;
  }

  function typeName(uuid) {
    var t = snap && snap.types.items.find(function (x) {
      return x.uuid === uuid;
    });
    return t ? t.name : uuid;
  }

  function table(caption, headers, rows, empty) {
    if (rows.length === 0) return el('p', { class: 'muted', text: empty });
    return el('div', { class: 'scroll' }, [
      el('table', {}, [
        el('caption', { class: 'sr-only', text: caption }),
        el('thead', {}, [
          el(
            'tr',
            {},
            headers.map(function (h) {
              return el('th', { scope: 'col', text: h });
            }),
          ),
        ]),
        el('tbody', {}, rows),
      ]),
    ]);
  }

  function cells(values) {
    return el(
      'tr',
      {},
      values.map(function (v) {
        return el('td', {}, [v === null || v === undefined ? '' : v]);
      }),
    );
  }

  function more(list, noun) {
    return list.total > list.items.length
      ? el('p', { class: 'muted', text: 'Showing ' + list.items.length + ' of ' + list.total + ' ' + noun + '.' })
      : null;
  }

  /** The entries a long list shows (newest first), and the button that shows the rest or hides it. */
  function latest(list, noun, which) {
    var items = showAll[which] ? list.items : list.items.slice(0, LATEST);
    if (list.items.length <= LATEST) return { items: items, toggle: null };
    var b = el('button', {
      type: 'button',
      class: 'show-all',
      'aria-expanded': showAll[which] ? 'true' : 'false',
      text: showAll[which] ? 'Show only the latest ' + LATEST : 'Show all ' + list.items.length + ' ' + noun,
    });
    b.addEventListener('click', function () {
      showAll[which] = !showAll[which];
      render();
    });
    var note = showAll[which] ? null : el('span', { class: 'muted', text: 'The latest ' + LATEST + ' of ' + list.total + ' ' + noun + ' ' });
    return { items: items, toggle: el('p', { class: 'actions' }, [note, b]) };
  }

  function fill(id, nodes) {
    var box = $(id);
    box.replaceChildren.apply(box, nodes.filter(Boolean));
  }

  function renderTypes() {
    var rows = snap.types.items.map(function (t) {
      var b = el('button', { type: 'button', class: 'mint', 'aria-label': 'Mint a link for ' + t.name, text: 'Mint link' });
      b.addEventListener('click', function () {
        act(b, 'Mint', function () {
          return api('POST', '/links', { meeting_type_uuid: t.uuid }).then(function (l) {
            return 'Link minted: ' + l.url;
          });
        });
      });
      return cells([t.name, t.duration + ' min', el('code', { text: t.slug }), b]);
    });
    fill('types-body', [table('Meeting types', ['Name', 'Length', 'Slug', ''], rows, 'No meeting types.'), more(snap.types, 'meeting types')]);
  }

  function renderLinks() {
    var shown = latest(snap.links, 'links', 'links');
    var rows = shown.items.map(function (l) {
      var status;
      var action = null;
      if (l.used_at) {
        status = el('span', {}, ['used ', el('time', { text: l.used_at }), ' \u2192 meeting ', el('code', { text: l.meeting_uuid || '' })]);
      } else {
        status = el('span', { class: 'badge unused', text: 'unused' });
        var buttons = actionsOn('link').map(function (a) {
          return actionButton(a, 'link ' + l.code + ' as the default invitee', function () {
            return api('POST', a.path, { code: l.code }).then(function (r) {
              return a.done + ' meeting ' + r.meeting.uuid + '.';
            });
          });
        });
        action = buttons.length === 1 ? buttons[0] : el('div', { class: 'actions' }, buttons);
      }
      return cells([
        el('a', { href: l.url, target: '_blank', rel: 'noopener noreferrer', class: 'link-url', title: l.url, text: l.url }),
        typeName(l.meeting_type_uuid),
        el('time', { text: l.created_at }),
        status,
        action,
      ]);
    });
    fill('links-body', [shown.toggle, table('Single-use links', ['Link', 'Meeting type', 'Created', 'Status', ''], rows, 'No links yet: mint one from a meeting type.'), showAll.links ? more(snap.links, 'links') : null]);
  }

  function localInput(iso) {
    var d = new Date(new Date(iso).getTime() + 24 * 3600 * 1000);
    var p = function (n) {
      return String(n).padStart(2, '0');
    };
    return d.getFullYear() + '-' + p(d.getMonth() + 1) + '-' + p(d.getDate()) + 'T' + p(d.getHours()) + ':' + p(d.getMinutes());
  }

  function renderMeetings() {
    var shown = latest(snap.meetings, 'meetings', 'meetings');
    var rows = shown.items.map(function (m) {
      var who = m.invitee ? m.invitee.full_name + ' <' + m.invitee.email + '>' : '';
      var actions = el('div', { class: 'actions' });
      if (!m.canceled_at) {
        var id = 'at-' + m.uuid;
        var at = el('input', { id: id, type: 'datetime-local', value: localInput(m.scheduled_at) });
        actionsOn('meeting').forEach(function (a) {
          // datetime-local has no zone: the browser's own is said beside it (and in its label).
          if (a.meeting.moves) {
            actions.append(
              el('label', { for: id, class: 'sr-only', text: 'New start for the meeting with ' + who + ', in ' + TZ }),
              at,
              el('span', { class: 'muted tz', title: 'the new start is in this browser’s time zone', text: TZ }),
            );
          }
          actions.append(actionButton(a, 'the meeting with ' + who, function () {
            var body = {};
            if (a.meeting.moves) {
              var when = new Date(at.value);
              if (isNaN(when.getTime())) return Promise.reject(new Error('choose a new start'));
              body.at = when.toISOString();
            }
            return api('POST', a.path.replace(':uuid', encodeURIComponent(m.uuid)), body).then(function () {
              return a.done + ' meeting ' + m.uuid + '.';
            });
          }));
        });
      }
      return cells([
        el('span', { class: 'badge state-' + m.state, text: m.state }),
        m.event_type ? m.event_type.name : '',
        who,
        el('time', { text: m.scheduled_at }),
        el('time', { text: m.end_date }),
        el('code', { text: m.uuid }),
        actions,
      ]);
    });
    fill('meetings-body', [shown.toggle, table('Meetings', ['State', 'Type', 'Invitee', 'Start', 'End', 'Meeting', ''], rows, 'No meetings yet: book a link.'), showAll.meetings ? more(snap.meetings, 'meetings') : null]);
  }

  function renderWebhooks() {
    var rows = snap.webhooks.items.map(function (w) {
      return cells([el('span', { class: 'url', text: w.url }), w.events.join(', '), el('time', { text: w.created_at }), w.signed ? 'signed' : 'unsigned', el('code', { text: w.uuid })]);
    });
    fill('webhooks-body', [table('Webhooks', ['URL', 'Events', 'Created', 'Signature', 'Webhook'], rows, 'No webhooks: add one with sched webhooks add.'), more(snap.webhooks, 'webhooks')]);
  }

  function describeFault(f) {
    var what = f.type === 'status' ? 'status ' + f.status + (f.retryAfter !== undefined ? ' (Retry-After: ' + f.retryAfter + ' s)' : '') : f.type === 'delay' || f.type === 'slow' ? f.type + ' ' + f.ms + ' ms' : f.type;
    var where = f.target === 'api' ? 'API ' + f.route : 'deliveries to ' + (f.webhook === '*' ? 'every webhook' : f.webhook);
    return where + ': ' + what + ', ' + f.remaining + ' of ' + f.times + ' left';
  }

  function renderFaults() {
    var items = snap.faults.map(function (f) {
      var b = el('button', { type: 'button', 'aria-label': 'Remove fault ' + f.id, text: 'Remove' });
      b.addEventListener('click', function () {
        act(b, 'Remove fault', function () {
          return api('DELETE', '/faults/' + f.id);
        });
      });
      return el('li', {}, [describeFault(f) + ' ', b]);
    });
    fill('faults-list', items.length ? [el('ul', {}, items)] : [el('p', { class: 'muted', text: 'No faults set.' })]);
    var hook = $('fault-webhook');
    var keep = hook.value;
    hook.replaceChildren(el('option', { value: '*', text: 'every webhook' }));
    snap.webhooks.items.forEach(function (w) {
      hook.append(el('option', { value: w.uuid, text: w.url }));
    });
    hook.value = keep || '*';
    syncFaultForm();
  }

  function syncFaultForm() {
    var api = $('fault-target').value === 'api';
    var kind = $('fault-kind-' + (api ? 'api' : 'delivery')).value;
    $('fault-kind-api-box').hidden = !api;
    $('fault-kind-delivery-box').hidden = api;
    $('fault-route-box').hidden = !api;
    $('fault-webhook-box').hidden = api;
    $('fault-status-box').hidden = kind !== 'status';
    $('fault-retry-box').hidden = !(api && kind === 'status');
    $('fault-ms-box').hidden = kind !== 'delay' && kind !== 'slow';
  }

  function faultSpec() {
    var target = $('fault-target').value;
    var kind = $('fault-kind-' + (target === 'api' ? 'api' : 'delivery')).value;
    var f = { type: kind, times: Number($('fault-times').value) || 1 };
    if (kind === 'status') f.status = Number($('fault-status').value);
    if (kind === 'status' && target === 'api' && $('fault-retry').value !== '' && (f.status === 429 || f.status === 503)) {
      f.retryAfter = Number($('fault-retry').value);
    }
    if (kind === 'delay' || kind === 'slow') f.ms = Number($('fault-ms').value);
    if (target === 'api') {
      f.route = $('fault-route').value.trim() || '*';
      return { api: [f] };
    }
    f.webhook = $('fault-webhook').value;
    return { deliveries: [f] };
  }

  function verdict(d) {
    var last = d.attempts[d.attempts.length - 1];
    var answer = last ? (last.status !== null ? 'HTTP ' + last.status : 'no answer (' + last.error + ')') : '';
    if (d.state === 'delivered') return { text: 'delivered, ' + answer, cls: 'ok' };
    if (d.state === 'failed') return { text: 'failed, ' + answer, cls: 'bad' };
    return { text: last ? 'retrying after ' + answer : 'sending', cls: 'pending' };
  }

  function pretty(body) {
    try {
      return JSON.stringify(JSON.parse(body), null, 2);
    } catch (e) {
      return body;
    }
  }

  function copyButton(label, text) {
    var b = el('button', { type: 'button', class: 'small', text: 'Copy', 'aria-label': 'Copy ' + label });
    b.addEventListener('click', function () {
      var done = function () {
        say(label + ' copied.');
      };
      if (navigator.clipboard) navigator.clipboard.writeText(text).then(done, function () {
        say('Copying was refused by the browser: select the text instead.', true);
      });
    });
    return b;
  }

  function deliveryEntry(d) {
    var v = verdict(d);
    var last = d.attempts[d.attempts.length - 1];
    var hook = snap.webhooks.items.find(function (w) {
      return w.uuid === d.webhook_uuid;
    });
    var summary = el('summary', {}, [
      el('time', { text: last ? last.started_at : 'queued' }),
      ' ',
      el('strong', { text: d.event }),
      ' \u2192 ',
      el('span', { class: 'url', title: d.url, text: d.url }),
      ' ',
      el('span', { class: 'badge ' + v.cls, text: v.text }),
      ' ',
      el('span', { class: 'muted', text: d.attempts.length + (d.attempts.length === 1 ? ' attempt' : ' attempts') + (last ? ', ' + last.duration_ms + ' ms' : '') }),
    ]);
    var attempts = d.attempts.map(function (a) {
      return cells([String(a.attempt), el('time', { text: a.started_at }), a.status === null ? '\u2014' : String(a.status), a.duration_ms + ' ms', a.error || '', a.fault || '', a.resend ? 'resend' : '']);
    });
    var headers = Object.keys(d.headers)
      .map(function (k) {
        return k + ': ' + d.headers[k];
      })
      .join('\n');
    var resend = el('button', { type: 'button', 'aria-label': 'Resend delivery ' + d.id, text: 'Resend', disabled: d.state === 'pending' });
    resend.addEventListener('click', function () {
      act(resend, 'Resend', function () {
        return api('POST', '/deliveries/' + d.id + '/resend').then(function () {
          return 'Delivery ' + d.id + ' sent again.';
        });
      });
    });
    var details = el('details', { open: expanded.has(d.id) }, [
      summary,
      el('dl', { class: 'facts' }, [
        el('dt', { text: 'Webhook' }),
        el('dd', { text: (hook ? hook.url + ' ' : '') + '(' + d.webhook_uuid + ')' }),
        el('dt', { text: 'Meeting' }),
        el('dd', { text: d.meeting_uuid }),
        el('dt', { text: 'Notification' }),
        el('dd', { text: d.notification_uuid }),
        el('dt', { text: 'Next retry' }),
        el('dd', { class: 'next-retry', text: d.next_retry_at || 'none' }),
      ]),
      table('Attempts of delivery ' + d.id, ['#', 'Started', 'Status', 'Took', 'Error', 'Fault', ''], attempts, 'Not attempted yet.'),
      el('h4', {}, ['Request headers ', copyButton('the headers', headers)]),
      el('pre', { class: 'headers', text: headers }),
      el('h4', {}, ['Request body ', copyButton('the body', d.body)]),
      el('pre', { class: 'body', text: pretty(d.body) }),
      el('h4', { text: "Receiver's answer" }),
      el('pre', { class: 'answer', text: last ? (last.status !== null ? 'HTTP ' + last.status + '\n' : '') + (last.response_body || '') || last.error || '' : '' }),
      resend,
    ]);
    // Opened by a person (a click, or Enter on the summary): its answer is brought into view,
    // clear of the status bar at the bottom (html's scroll-padding-bottom). A re-render that
    // keeps it open does not scroll.
    var opening = false;
    summary.addEventListener('click', function () {
      opening = !details.open;
    });
    details.addEventListener('toggle', function () {
      if (details.open) {
        expanded.add(d.id);
        if (opening) details.querySelector('pre.answer').scrollIntoView({ block: 'nearest' });
      } else expanded.delete(d.id);
      opening = false;
    });
    return el('li', { class: 'delivery', 'data-id': d.id, 'data-state': d.state }, [details]);
  }

  function renderLog() {
    var list = Array.from(deliveries.values())
      .filter(function (d) {
        return (!filters.event || d.event === filters.event) && (!filters.webhook || d.webhook_uuid === filters.webhook) && (!filters.meeting || d.meeting_uuid === filters.meeting);
      })
      .sort(function (a, b) {
        return b.id - a.id;
      })
      .slice(0, 200);
    fill('log-list', list.length ? list.map(deliveryEntry) : [el('li', { class: 'muted', text: deliveries.size ? 'No delivery matches the filters.' : 'No deliveries yet: book a link.' })]);
  }

  function renderFilters() {
    var options = function (id, items, all) {
      var s = $(id);
      var keep = s.value;
      s.replaceChildren(el('option', { value: '', text: all }));
      items.forEach(function (o) {
        s.append(el('option', { value: o[0], text: o[1] }));
      });
      s.value = keep;
    };
    options('filter-event', EVENTS.map(function (e) { return [e, e]; }), 'every event');
    options('filter-webhook', snap.webhooks.items.map(function (w) { return [w.uuid, w.url]; }), 'every webhook');
    options('filter-meeting', snap.meetings.items.map(function (m) { return [m.uuid, (m.invitee ? m.invitee.full_name : '') + ' ' + m.scheduled_at + ' (' + m.uuid.slice(0, 8) + ')']; }), 'every meeting');
  }

  function render() {
    renderTypes();
    renderLinks();
    renderMeetings();
    renderWebhooks();
    renderFaults();
    renderFilters();
    renderLog();
  }

  var refreshing = null;
  var again = false;
  function refresh() {
    if (refreshing) {
      again = true;
      return refreshing;
    }
    refreshing = api('GET', '/snapshot')
      .then(function (s) {
        snap = s;
        s.deliveries.items.forEach(function (d) {
          deliveries.set(d.id, d);
        });
        render();
      })
      .catch(function (e) {
        say('Could not read the sandbox: ' + e.message, true);
      })
      .then(function () {
        refreshing = null;
        if (again) {
          again = false;
          return refresh();
        }
      });
    return refreshing;
  }

  var refreshTimer = null;
  function soon() {
    if (refreshTimer === null) {
      refreshTimer = setTimeout(function () {
        refreshTimer = null;
        refresh();
      }, 100);
    }
  }

  function status(text, live) {
    var c = $('conn');
    c.textContent = text;
    c.className = live ? 'badge ok' : 'badge pending';
  }

  function onEvent(chunk) {
    var type = 'message';
    var data = '';
    chunk.split('\n').forEach(function (line) {
      if (line.indexOf('event:') === 0) type = line.slice(6).trim();
      else if (line.indexOf('data:') === 0) data += line.slice(5).trim();
    });
    if (type === 'delivery') {
      var d = JSON.parse(data);
      deliveries.set(d.id, d);
      if (snap) renderLog();
    } else if (type === 'changed') {
      soon();
    }
  }

  function connect() {
    fetch('/api/_sandbox/events', { headers: { 'x-api-key': key, accept: 'text/event-stream' } })
      .then(function (res) {
        if (!res.ok || !res.body) throw new Error('HTTP ' + res.status);
        status('live', true);
        refresh();
        var reader = res.body.getReader();
        var decoder = new TextDecoder();
        var buffer = '';
        function pump() {
          return reader.read().then(function (r) {
            if (r.done) return;
            buffer += decoder.decode(r.value, { stream: true });
            var at;
            while ((at = buffer.indexOf('\n\n')) >= 0) {
              onEvent(buffer.slice(0, at));
              buffer = buffer.slice(at + 2);
            }
            return pump();
          });
        }
        return pump();
      })
      .catch(function () {})
      .then(function () {
        status('reconnecting\u2026', false);
        setTimeout(connect, 1000);
      });
  }

  function start() {
    $('login').hidden = true;
    $('app').hidden = false;
    ['event', 'webhook', 'meeting'].forEach(function (f) {
      $('filter-' + f).addEventListener('change', function (e) {
        filters[f] = e.target.value;
        renderLog();
      });
    });
    ['fault-target', 'fault-kind-api', 'fault-kind-delivery'].forEach(function (id) {
      $(id).addEventListener('change', syncFaultForm);
    });
    $('fault-form').addEventListener('submit', function (e) {
      e.preventDefault();
      var b = $('fault-add');
      act(b, 'Set fault', function () {
        return api('POST', '/faults', faultSpec()).then(function (r) {
          return 'Fault set: ' + describeFault(r.items[0]) + '.';
        });
      });
    });
    $('faults-clear').addEventListener('click', function (e) {
      act(e.target, 'Clear faults', function () {
        return api('DELETE', '/faults');
      });
    });
    connect();
  }

  document.addEventListener('DOMContentLoaded', function () {
    if (key) return start();
    $('login').hidden = false;
    $('key').focus();
    $('login').addEventListener('submit', function (e) {
      e.preventDefault();
      key = $('key').value;
      api('GET', '/snapshot')
        .then(function () {
          sessionStorage.setItem('sched-sandbox-key', key);
          $('login-error').textContent = '';
          start();
        })
        .catch(function (err) {
          $('login-error').textContent = err.status === 401 ? 'That key was refused: give the key the sandbox was started with.' : err.message;
        });
    });
  });
})();
`;
