import { command, NO_CSV } from '../define.js';
import { apiInput } from './inputs.js';

export const api = command({
  name: 'api',
  description: 'Make an authenticated request to any API path and print the answer',
  input: apiInput,
  // table (the default) and json both print the body as received; ndjson, with --paginate,
  // one item a line.
  formats: NO_CSV,
  examples: [
    'sched api /webhooks',
    'sched api "users/me/meeting-types?limit=5" --include',
    "sched api webhooks -f url=https://example.com/hook -f 'events[]=meetingScheduled'",
    'sched api single-use-link -F meeting_type_uuid=3f2a9c4e-7b1d-4e8a-9c55-1d2e3f4a5b6c',
    'uuid=$(sched webhooks ls -q | head -1)   # a webhook to delete',
    'sched api -X DELETE "webhooks/$uuid"',
    "sched api webhooks --paginate -o ndjson | jq -r '.url'",
    `echo '{"url":"https://example.com/hooks/input","events":["meetingCancelled"]}' > webhook.json`,
    'sched api webhooks --input webhook.json -H "Accept-Language: de"',
  ],
  json: "the response body as received (JSON pretty on a terminal, compact in a pipe; anything else as it came); with --paginate one array of every page's items (-o ndjson: one item per line)",
  exitCodes: [
    [1, 'the API answered another status that is not 2xx (the body is still printed)'],
    [2, 'bad flags or body, found before sending; or the API answered 400 or 422'],
    [4, 'the API answered 401 or 403'],
    [5, 'the API answered 404'],
  ],
  load: () => import('./run.js'),
});
