// The floor of `sched link create <uuid> --count N` (`npm run bench`): N POSTs through undici's
// public request(), 8 in flight (sched's default --concurrency), each link's URL printed in
// request order, as sched prints them. Usage: node bench-floor-links.mjs <uuid> <count>
import { request } from 'undici';
const [uuid, count] = [process.argv[2], Number(process.argv[3])];
const url = `${process.env.SCHED_BASE_URL}/single-use-link`;
const headers = { 'x-api-key': process.env.SCHED_API_KEY, 'content-type': 'application/json' };
const payload = JSON.stringify({ meeting_type_uuid: uuid });
const mint = async () =>
  (await (await request(url, { method: 'POST', headers, body: payload })).body.json()).url;
const urls = new Array(count);
let next = 0;
let printed = 0;
async function worker() {
  while (next < count) {
    const i = next++;
    urls[i] = await mint();
    let out = '';
    while (printed < count && urls[printed] !== undefined) out += urls[printed++] + '\n';
    if (out) process.stdout.write(out);
  }
}
await Promise.all(Array.from({ length: 8 }, worker));
