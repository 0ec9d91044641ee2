// ARCHITECTURE.md is the map of src/: every folder of src/ is named in it, so a new folder
// cannot appear without saying what it owns and what it may import.
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = new URL('../../', import.meta.url);

describe('ARCHITECTURE.md', () => {
  it('names every folder of src/', () => {
    const map = readFileSync(fileURLToPath(new URL('ARCHITECTURE.md', root)), 'utf8');
    const folders = readdirSync(fileURLToPath(new URL('src/', root)), { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => `${e.name}/`);
    expect(folders.length).toBeGreaterThan(5);
    expect(folders.filter((f) => !map.includes(`\`${f}\``))).toEqual([]);
  });
});
