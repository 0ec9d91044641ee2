// The floor of `sched types list --all -o ndjson --limit N` (`npm run bench`): page 1, then the
// other pages through undici's public request(), 4 in flight (sched's page walk), each item
// printed as one JSON line in page order. Usage: node bench-floor-all.mjs <limit>
import { request } from 'undici';
const limit = Number(process.argv[2]);
const headers = { 'x-api-key': process.env.SCHED_API_KEY };
const base = `${process.env.SCHED_BASE_URL}/users/me/meeting-types?limit=${limit}&page=`;
const get = async (p) => await (await request(base + p, { headers })).body.json();
const print = (page) =>
  process.stdout.write(page._embedded.items.map((t) => JSON.stringify(t) + '\n').join(''));
const first = await get(1);
print(first);
const inFlight = [];
for (let p = 2, done = 2; done <= first.pages;) {
  while (p <= first.pages && inFlight.length < 4) inFlight.push(get(p++));
  print(await inFlight.shift());
  done++;
}
