// The docs keep readable ports (4020, 4021, 3000) for the servers their examples start; the
// tests that run them give each a free port instead, so an example never sends to a program
// that happens to listen on 4021 here (with one there, the tests once sent it four deliveries).
import { describe, expect, it } from 'vitest';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { EXAMPLE_PORTS, withFreeExamplePorts } from '../helpers/ports.js';
import { GUIDES } from './guides.js';

const root = fileURLToPath(new URL('../..', import.meta.url));
const commandPages = (await readdir(join(root, 'docs', 'commands'))).map((p) => `docs/commands/${p}`);
const all = await Promise.all(
  [...GUIDES, ...commandPages].map((p) => readFile(join(root, p), 'utf8')),
);
const text = all.join('\n');
const portIn = (port: number) =>
  new RegExp(`(127\\.0\\.0\\.1:|localhost:|--port |\\.listen\\()${port}\\b`);

describe('example ports', () => {
  it('the docs show the readable ports (so this test checks something)', () => {
    for (const port of EXAMPLE_PORTS) expect(text, String(port)).toMatch(portIn(port));
  });

  it('the examples as the tests run them use none of them', async () => {
    const run = await withFreeExamplePorts(text);
    for (const port of EXAMPLE_PORTS) expect(run, String(port)).not.toMatch(portIn(port));
  });

  it('one readable port becomes the same free port everywhere in a script', async () => {
    const run = await withFreeExamplePorts(
      'sched webhooks listen --port 4020 & sched events send x --to http://127.0.0.1:4020/hook',
    );
    const [a, b] = [...run.matchAll(/(?:--port |:)(\d+)/g)].map((m) => m[1]);
    expect(a).toBe(b);
    expect(a).not.toBe('4020');
  });
});
