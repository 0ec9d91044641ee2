// Reading a whole stream (stdin, a file) into memory: `--input -`, `--payload-file`, a sync file,
// an API key on stdin. One home for the loop; a leaf module. Our streams carry Buffers: none of
// them ever has an encoding set.

/** The bytes of `stream`, to its end. */
export async function readAll(stream: AsyncIterable<unknown>): Promise<Buffer> {
  return (await readAtMost(stream, Infinity))!;
}

/** The bytes of `stream`, or undefined as soon as they pass `max` (the rest is not read). */
export async function readAtMost(
  stream: AsyncIterable<unknown>,
  max: number,
): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of stream) {
    const b = c as Buffer;
    size += b.length;
    if (size > max) return undefined;
    chunks.push(b);
  }
  return Buffer.concat(chunks, size);
}
