// Everything generated from the command definitions besides completions/: docs/ and sched.1,
// as paths relative to the repository root. scripts/gen-docs.mjs writes them; the drift test
// in test/docs/ compares them with what is committed.
import { markdownFiles } from './markdown.js';
import { manPage } from './man.js';
import { buildReference } from './model.js';
import { COMMAND_NAMES } from '../names.js';

export const MAN_PAGE = 'sched.1';
/**
 * The man page of the second name (src/names.ts): a roff `.so` request, which man reads as
 * "this page is sched.1" (npm links both pages into the same man1/ folder).
 */
export const ALIAS_MAN_PAGES = COMMAND_NAMES.slice(1).map((n) => `${n}.1`);

export async function generatedFiles(): Promise<Map<string, string>> {
  const ref = await buildReference();
  const files = new Map<string, string>();
  for (const [path, text] of markdownFiles(ref)) files.set(`docs/${path}`, text);
  files.set(MAN_PAGE, manPage(ref));
  for (const page of ALIAS_MAN_PAGES) files.set(page, `.so man1/${MAN_PAGE}\n`);
  return files;
}
