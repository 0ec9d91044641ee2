#!/usr/bin/env node
// The fixed server of `npm run bench`: answers the few API calls the bench makes from memory,
// with no validation, storage or logging, so its own cost is small and the same for every
// client, and a faster or slower sandbox cannot move the ratios. Not the sandbox: a benchmark
// fixture only.
//
// Usage: node scripts/bench-server.mjs <types> [<tls key file> <tls cert file>]
// With a key and certificate it speaks HTTPS (as the service does). The base path is /api/v3,
// where `gh api` looks on a host of its own (GH_HOST), so gh and sched ask the same server the
// same question. Prints one JSON line {"baseUrl","apiKey","uuid","port"} when it listens on
// loopback, then serves until killed:
//   GET  <base>/users/me/meeting-types?page=&limit=   a page of <types> synthetic meeting types
//   GET  <base>/users/me/meeting-types/<uuid>          one of them
//   POST <base>/single-use-link                        a new link (a fresh code each time)
import { readFileSync } from 'node:fs';
import http from 'node:http';
import https from 'node:https';

const TYPES = Number(process.argv[2] ?? 10_000);
const API_KEY = 'bench-key';
const BASE = '/api/v3';
const [, , , keyFile, certFile] = process.argv;
const tls =
  keyFile && certFile ? { key: readFileSync(keyFile), cert: readFileSync(certFile) } : undefined;

const uuidOf = (i) => `00000000-0000-4000-8000-${String(i).padStart(12, '0')}`;
const typeItem = (i) => ({
  uuid: uuidOf(i),
  name: `Type ${i}`,
  slug: `type-${i}`,
  duration: 30,
  position: i,
});

/** Answer bodies, each built once: `page|limit` -> Buffer. */
const pages = new Map();
function page(p, limit) {
  const key = `${p}|${limit}`;
  let body = pages.get(key);
  if (!body) {
    const items = [];
    for (let i = (p - 1) * limit; i < Math.min(TYPES, p * limit); i++) items.push(typeItem(i));
    body = Buffer.from(
      JSON.stringify({
        page: p,
        limit,
        pages: Math.ceil(TYPES / limit),
        total: TYPES,
        _embedded: { items },
      }),
    );
    pages.set(key, body);
  }
  return body;
}

let minted = 0;
const send = (res, status, body) => {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
};
const NOT_FOUND = Buffer.from('{"message":"Not found."}');
const UNAUTHORIZED = Buffer.from('{"message":"Invalid API key."}');

const handler = (req, res) => {
  // The body (a POST's) is not needed: drain it, then answer.
  req.resume();
  req.on('end', () => {
    if (req.headers['x-api-key'] !== API_KEY) return send(res, 401, UNAUTHORIZED);
    const q = req.url.indexOf('?');
    const path = q === -1 ? req.url : req.url.slice(0, q);
    const params = new URLSearchParams(q === -1 ? '' : req.url.slice(q + 1));
    if (req.method === 'POST' && path === `${BASE}/single-use-link`) {
      const code = `b${(++minted).toString(36).padStart(8, '0')}`;
      return send(
        res,
        200,
        Buffer.from(`{"code":"${code}","url":"https://book.example/s/${code}"}`),
      );
    }
    if (req.method === 'GET' && path === `${BASE}/users/me/meeting-types`) {
      const limit = Math.max(1, Math.min(100, Number(params.get('limit') ?? 10) || 10));
      return send(res, 200, page(Math.max(1, Number(params.get('page') ?? 1) || 1), limit));
    }
    const one = path.startsWith(`${BASE}/users/me/meeting-types/`)
      ? [path, path.slice(`${BASE}/users/me/meeting-types/`.length)]
      : null;
    if (req.method === 'GET' && one) {
      const i = Number(one[1].slice(-12));
      if (one[1] === uuidOf(i) && i < TYPES) {
        return send(res, 200, Buffer.from(JSON.stringify(typeItem(i))));
      }
    }
    return send(res, 404, NOT_FOUND);
  });
};
const server = tls ? https.createServer(tls, handler) : http.createServer(handler);
server.keepAliveTimeout = 30_000;
server.listen(0, '127.0.0.1', () => {
  const { port } = server.address();
  process.stdout.write(
    JSON.stringify({
      baseUrl: `${tls ? 'https' : 'http'}://127.0.0.1:${port}${BASE}`,
      port,
      apiKey: API_KEY,
      uuid: uuidOf(0),
    }) + '\n',
  );
});
