import { describe, expect, it } from 'vitest';
import { spawnSched } from '../helpers/run.js';

describe('the built binary', () => {
  it('prints its version on stdout and nothing on stderr', async () => {
    const r = await spawnSched(['--version']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^\d+\.\d+\.\d+\S*\n$/);
    expect(r.stderr).toBe('');
  });

  it('sends usage errors to stderr with exit 2 and keeps stdout empty', async () => {
    const r = await spawnSched(['types', 'list', '--limit', '0']);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    expect(r.stderr).toMatch(/^error: option '--limit <n>'/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});
