// Everything generated from the command definitions besides completions/: docs/ and sched.1,
// as paths relative to the repository root. scripts/gen-docs.mjs writes them; the drift test
// in test/docs/ compares them with what is committed.
import { markdownFiles } from './markdown.js';
import { manPage } from './man.js';
import { buildReference } from './model.js';

export const MAN_PAGE = 'sched.1';

export function generatedFiles(): Map<string, string> {
  const ref = buildReference();
  const files = new Map<string, string>();
  for (const [path, text] of markdownFiles(ref)) files.set(`docs/${path}`, text);
  files.set(MAN_PAGE, manPage(ref));
  return files;
}
