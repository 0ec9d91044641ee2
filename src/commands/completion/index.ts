import { command, TEXT_ONLY } from '../define.js';
import { printInput, completeInput } from './inputs.js';

/** How each shell loads the completion in every new shell, written only under ~. */
export const SETUP_LINES = {
  bash: `echo 'eval "$(sched completion bash)"' >> ~/.bashrc`,
  zsh: `mkdir -p ~/.zfunc && schedcli completion zsh > ~/.zfunc/_sched && echo 'fpath=(~/.zfunc $fpath); autoload -Uz compinit && compinit' >> ~/.zshrc`,
  fish: 'mkdir -p ~/.config/fish/completions && sched completion fish > ~/.config/fish/completions/sched.fish',
} as const;

export const completion = command({
  name: 'completion',
  description: 'Print the shell completion script for bash, zsh or fish',
  input: printInput,
  // The set-up lines README gives too: each writes only under ~ (no root) and needs nothing
  // beyond the shell (bash without the bash-completion package). SETUP_LINES is their one home.
  examples: [
    `# bash: in every new shell (no bash-completion package needed)`,
    SETUP_LINES.bash,
    `# zsh: a folder of your own on $fpath, before compinit (schedcli: zsh's builtin is sched)`,
    SETUP_LINES.zsh,
    `# fish (one file per name: \`schedcli completion fish\` writes schedcli.fish)`,
    SETUP_LINES.fish,
  ],
  formats: TEXT_ONLY,
  load: () => import('./print.js'),
});

// Hidden: the completion scripts ask it for values known only at run time.
export const complete = command({
  name: '__complete',
  hidden: true,
  description: 'List completion candidates (used by the completion scripts)',
  input: completeInput,
  examples: ['sched __complete profiles', 'sched --timeout 2 __complete meeting-types'],
  formats: TEXT_ONLY,
  load: () => import('../../completion/dynamic.js'),
});
