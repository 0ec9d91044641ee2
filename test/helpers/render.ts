// One list or one object in a format named by the test: show() with only records and columns,
// as a command with those columns prints them.
import type { IO } from '../../src/io.js';
import type { OutputFormat } from '../../src/output/formats.js';
import { show, type Column, type ListSource } from '../../src/output/render.js';

export interface RenderOptions<T> {
  format: OutputFormat;
  columns: readonly Column<T>[];
}

export function renderList<T>(
  io: IO,
  items: ListSource<T>,
  opts: RenderOptions<T>,
): Promise<number> {
  return show(io, { output: opts.format }, { records: items, columns: opts.columns });
}

export async function renderObject<T>(io: IO, item: T, opts: RenderOptions<T>): Promise<void> {
  await show(io, { output: opts.format }, { records: [item], one: true, columns: opts.columns });
}
