// The arguments and options of every `sched api` verb, declared once (see ../define.ts):
// index.ts registers them, and each verb's run() takes its type from here.
import { arg, flag, input, list, value, type InputOf } from '../define.js';

export const apiInput = input({
  args: [
    arg(
      '<path>',
      'path relative to the base URL, query string included (/webhooks, "webhooks?limit=5")',
    ),
  ],
  options: [
    value(
      '-X, --method <method>',
      'GET, POST, PUT, PATCH or DELETE (default GET, or POST when a body is given)',
    ),
    list(
      '-f, --raw-field <key=value>',
      'add a string field to the JSON body (key[]=v appends to a list)',
    ),
    list(
      '-F, --field <key=value>',
      'add a typed field: a number, true, false or null, else a string (key[]=v appends)',
    ),
    value('--input <file>', 'send the bytes of this file as the body ("-" reads stdin)'),
    list('-H, --header <header>', "add a header, 'Name: value' (repeatable; not X-API-KEY)"),
    flag('--paginate', 'read every page of a paged GET and print one array of all items'),
    flag('-i, --include', 'print the status line and the response headers first'),
  ],
});
export type ApiOptions = InputOf<typeof apiInput>;
