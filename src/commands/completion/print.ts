// `sched completion <shell>`: prints the completion script generated from the command tree.
import type { Command } from 'commander';
import type { Context } from '../../context.js';
import type { CompletionOptions } from './inputs.js';
import { UsageError } from '../../errors.js';
import { SHELLS, type Shell, type TreeFacts } from '../../completion/model.js';
import { quote } from '../../text/quote.js';
import { isRepeatable, visibleCommands } from '../define.js';
import { HELP_TOPICS } from '../help/topics.js';
import { renderText } from '../../output/render.js';

/** What the completion model needs to know about the tree beyond commander's own records. */
export const TREE_FACTS: TreeFacts = {
  helpTopics: Object.entries(HELP_TOPICS).map(([name, t]) => [name, t.summary] as const),
  isRepeatable,
  visibleCommands,
};

export async function run(ctx: Context, opts: CompletionOptions, program: Command): Promise<void> {
  const shell = opts.shell.trim().toLowerCase();
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(
      `unknown shell ${quote(opts.shell)}; completion scripts exist for ${SHELLS.join(', ')}`,
      { hint: 'run `sched completion bash`, `sched completion zsh` or `sched completion fish`' },
    );
  }
  // Only the tree's shape matters here: the running program is the tree.
  const { completionScript } = await import('../../completion/generate.js');
  await renderText(ctx.io, completionScript(shell as Shell, program, TREE_FACTS));
}
