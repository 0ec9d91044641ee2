// Issue 16, points 9 and 13: the sandbox on a non-loopback address, and its booking page.
import { describe, expect, it } from 'vitest';
import path from 'node:path';
import { useConfigDir } from '../helpers/config-dir.js';
import { startTestSandbox } from '../helpers/sandbox.js';
import { spawnServer, writeSandboxState } from '../helpers/hostile.js';

const config = useConfigDir('sched-sec-sandbox-host-');

/** Starts `sched sandbox ...`; resolves when it printed its first stdout line or ended. */
async function startSandboxProcess(argv: string[]) {
  const sb = spawnServer(['sandbox', '--port', '0', ...argv], { SCHED_CONFIG_DIR: config.path });
  await sb.waitFor(/\n/, 'stdout').catch(() => {});
  return { ...sb, started: !sb.ended() };
}

describe('9. sched sandbox on a non-loopback address', () => {
  it('without --api-key it refuses to start (exit 2), naming both ways out', async () => {
    const sb = await startSandboxProcess(['--host', '0.0.0.0']);
    const code = await sb.stop();
    expect(sb.started).toBe(false);
    expect(code).toBe(2);
    expect(sb.stdout()).toBe('');
    expect(sb.stderr()).toMatch(/^error: .*0\.0\.0\.0/);
    expect(sb.stderr()).toMatch(/--api-key/);
    expect(sb.stderr()).toMatch(/--insecure-default-key/);
  });

  for (const extra of [['--api-key', 'a-private-key-for-my-team'], ['--insecure-default-key']]) {
    it(`with ${extra[0]} it starts, and warns on stderr (internal URLs included)`, async () => {
      const sb = await startSandboxProcess(['--host', '0.0.0.0', ...extra]);
      try {
        expect(sb.started, sb.stderr()).toBe(true);
        expect(sb.stderr()).toMatch(/warning: .*0\.0\.0\.0/);
        expect(sb.stderr()).toMatch(/other machines|network/);
        expect(sb.stderr()).toMatch(/internal/);
        if (extra[0] === '--insecure-default-key') expect(sb.stderr()).toMatch(/default key/);
      } finally {
        expect(await sb.stop()).toBe(0);
      }
    });
  }

  it('on loopback nothing changes: no warning, the default key', async () => {
    const sb = await startSandboxProcess(['--host', '127.0.0.1']);
    try {
      expect(sb.started, sb.stderr()).toBe(true);
      expect(sb.stderr()).not.toMatch(/warning/);
    } finally {
      expect(await sb.stop()).toBe(0);
    }
  });
});

describe('13. the booking page escapes every value from a state file, whatever its type', () => {
  it('a duration that holds HTML, and names, descriptions, labels', async () => {
    const state = path.join(config.path, 'page-state.json');
    const html = '<script>alert(1)</script><img src=x onerror=alert(2)>';
    writeSandboxState(state, {
      type: { name: `Intro ${html}`, description: html, duration: html, location_label: html },
      linkCodes: ['page1'],
    });
    const sb = await startTestSandbox({ stateFile: state });
    try {
      const res = await fetch(`${sb.publicUrl}/s/page1`);
      expect(res.status).toBe(200);
      const page = await res.text();
      expect(page).not.toContain('<script>alert');
      expect(page).not.toContain('<img');
      expect(page).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
      // The only script on the page is the sandbox's own time-zone prefill.
      expect(page.match(/<script>/g)).toHaveLength(1);
    } finally {
      await sb.close();
    }
  });
});
