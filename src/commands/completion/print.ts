// `sched completion <shell>`: prints the completion script generated from the command tree.
import type { Context } from '../../context.js';
import { UsageError } from '../../errors.js';
import { SHELLS, type Shell } from '../../completion/model.js';
import { quote } from '../../text/quote.js';

export async function run(
  ctx: Context,
  args: string[],
  _flags: Record<string, unknown>,
): Promise<void> {
  const shell = (args[0] ?? '').trim().toLowerCase();
  if (!(SHELLS as readonly string[]).includes(shell)) {
    throw new UsageError(
      `unknown shell ${quote(args[0] ?? '')}; completion scripts exist for ${SHELLS.join(', ')}`,
      { hint: 'run `sched completion bash`, `sched completion zsh` or `sched completion fish`' },
    );
  }
  // The tree is rebuilt with inert actions: only its shape matters here.
  const [{ buildProgram }, { completionScript }] = await Promise.all([
    import('../../cli.js'),
    import('../../completion/generate.js'),
  ]);
  await ctx.io.out(
    completionScript(
      shell as Shell,
      buildProgram(() => async () => {}),
    ),
  );
}
