import { ALL_FORMATS, command, type CommandDef, TEXT_OR_JSON } from '../define.js';
import {
  ACTION_VERBS,
  actionName,
  SANDBOX_ACTIONS,
  type ActionVerb,
} from '../../sandbox/actions.js';
import {
  bookInput,
  deliveriesInput,
  meetingActionInput,
  meetingsInput,
  serveInput,
} from './inputs.js';

/** `sched sandbox <verb>` of each sandbox action (its row in src/sandbox/actions.ts). */
function actionCommand(verb: ActionVerb): CommandDef {
  const row = SANDBOX_ACTIONS[verb];
  const common = {
    name: actionName(verb),
    description: `${row.summary} in a running sandbox (delivers ${row.event})`,
    examples: row.cli.examples,
    json: 'the meeting object, as the sandbox API returns it',
    formats: ALL_FORMATS,
  };
  // The link action (book) has options and checks of its own; a meeting action's come from its row.
  if (row.on === 'link')
    return command({ ...common, input: bookInput, load: () => import('./book.js') });
  return command({
    ...common,
    input: meetingActionInput(row),
    load: async () => (await import('./action.js')).runAction(verb) as never,
  });
}

export const sandbox = command({
  name: 'sandbox',
  description:
    'Run a local emulator of the whole service API, with bookings, signed deliveries and a browser console at its / (live delivery log, synthetic faults)',
  input: serveInput,
  examples: [
    'sched sandbox',
    'sched sandbox --port 0 --json --state ./sandbox-state.json',
    'echo \'{"api":[{"route":"GET /users/me/meeting-types","type":"status","status":429,"retryAfter":1}]}\' > faults.json',
    'sched sandbox --seed 42 --faults faults.json   # repeatable values; synthetic 429s, 5xx, resets, slow deliveries',
    'sched sandbox --types 300   # 300 meeting types: paging, the pick list, `types list --name`',
  ],
  json: 'first stdout line {"baseUrl","publicUrl","apiKey"}; the request and delivery log goes to stderr',
  exitCodes: [[0, 'stopped with Ctrl-C or SIGTERM after a clean shutdown']],
  formats: TEXT_OR_JSON,
  load: () => import('./serve.js'),
  commands: [
    ...ACTION_VERBS.map(actionCommand),
    command({
      name: 'meetings',
      description: 'List the meetings of a running sandbox (booked, cancelled, rescheduled)',
      input: meetingsInput,
      examples: ['sched sandbox meetings', 'sched sandbox meetings --json | jq -r ".[].uuid"'],
      json: 'an array of meeting objects, oldest first, as the sandbox keeps them',
      formats: ALL_FORMATS,
      load: () => import('./meetings.js'),
    }),
    command({
      name: 'deliveries',
      description: 'List the webhook deliveries of a running sandbox, with every attempt',
      input: deliveriesInput,
      examples: [
        'sched sandbox deliveries',
        'MEETING=$(sched sandbox book "$(sched link create intro-call)" -q)',
        'sched sandbox cancel "$MEETING" --reason "example"',
        'sched sandbox deliveries --event meetingCancelled --meeting "$MEETING" --json',
      ],
      json: 'an array of delivery records (id, event, webhook_uuid, meeting_uuid, url, signed, body, headers, state, attempts, next_retry_at), oldest first; the sandbox keeps the last 1000',
      formats: ALL_FORMATS,
      load: () => import('./deliveries.js'),
    }),
  ],
});
