// Reading a whole stream (src/read-bytes.ts): every byte, in order, or nothing past the cap.
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { readAll, readAtMost } from '../../src/read-bytes.js';

const chunks = () => Readable.from([Buffer.from('ab'), Buffer.from('cd'), Buffer.from('é')]);

describe('readAll / readAtMost', () => {
  it('every byte in order, a multi-byte character split or not', async () => {
    expect((await readAll(chunks())).toString('utf8')).toBe('abcdé');
    expect((await readAll(Readable.from([]))).length).toBe(0);
  });

  it('at the cap exactly: the bytes; one past it: undefined, and the rest is not read', async () => {
    expect((await readAtMost(chunks(), 6))?.toString('utf8')).toBe('abcdé');
    let pulled = 0;
    const endless = Readable.from(
      (function* () {
        for (;;) {
          pulled += 1;
          yield Buffer.alloc(1024);
        }
      })(),
    );
    expect(await readAtMost(endless, 10_000)).toBeUndefined();
    expect(pulled).toBeLessThan(40);
  });
});
