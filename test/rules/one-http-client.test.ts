// One HTTP client: every request sched makes as a client (API calls, and deliveries sent to a
// webhook receiver) goes through src/api/exchange.ts on undici. node:http and node:https serve
// (the sandbox, the webhook listener) and are never a client outside the sandbox, whose
// delivery sender emulates the service and must not share our client (ARCHITECTURE.md).
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const src = fileURLToPath(new URL('../../src', import.meta.url));

/** What a file takes from node:http or node:https that makes requests (static or lazy). */
function clientUses(text: string): string[] {
  const found: string[] = [];
  for (const m of text.matchAll(/import\s+(?!type\b)([\s\S]*?)\s+from\s+'node:https?'/g)) {
    const clause = m[1]!;
    // A default or namespace import takes the whole module, request() included.
    const whole = clause
      .replace(/\{[\s\S]*\}/, '')
      .replace(/,/g, '')
      .trim();
    if (whole) found.push(whole);
    const named = (/\{([\s\S]*)\}/.exec(clause)?.[1] ?? '').split(',').map((n) => n.trim());
    found.push(...named.filter((n) => /^(request|get|Agent|globalAgent|ClientRequest)\b/.test(n)));
  }
  if (/import\(\s*'node:https?'\s*\)/.test(text) && /\.(request|get)\(/.test(text)) {
    found.push("import('node:http') with .request/.get");
  }
  return found;
}

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

describe('one HTTP client', () => {
  it('no file outside the sandbox uses node:http(s) as a client', () => {
    const offenders = files(src)
      .filter((f) => f.endsWith('.ts'))
      .filter((f) => !path.relative(src, f).startsWith('sandbox' + path.sep))
      .flatMap((f) =>
        clientUses(readFileSync(f, 'utf8')).map((u) => `${path.relative(src, f)}: ${u}`),
      );
    expect(offenders).toEqual([]);
  });

  it.each([
    ["import { request } from 'node:http';", true],
    ["import { request as r, type IncomingMessage } from 'node:https';", true],
    ["import http from 'node:http';", true],
    ["import * as https from 'node:https';", true],
    ["const mod = await import('node:https'); mod.request(u);", true],
    ["import { createServer, type Server } from 'node:http';", false],
    ["import { STATUS_CODES } from 'node:http';", false],
    ["import type { IncomingHttpHeaders } from 'node:http';", false],
    ["const { createServer } = await import('node:http');", false],
  ])('sees a client in %s: %s', (line, client) => {
    expect(clientUses(line).length > 0).toBe(client);
  });
});
