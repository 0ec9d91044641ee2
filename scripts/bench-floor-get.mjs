// The floor of one GET (`npm run bench`): what `sched types list --json` does, written plainly
// on the same stack (undici's public request(), bundled by the bench as sched's build bundles it).
import { request } from 'undici';
const url = `${process.env.SCHED_BASE_URL}/users/me/meeting-types?page=1`;
const { body } = await request(url, { headers: { 'x-api-key': process.env.SCHED_API_KEY } });
process.stdout.write(JSON.stringify((await body.json())._embedded.items) + '\n');
