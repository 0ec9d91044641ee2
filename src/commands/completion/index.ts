import { command } from '../define.js';
import { printInput, completeInput } from './inputs.js';

export const completion = command({
  name: 'completion',
  description: 'Print the shell completion script for bash, zsh or fish',
  input: printInput,
  examples: [
    'mkdir -p ~/.local/share/bash-completion/completions && sched completion bash > ~/.local/share/bash-completion/completions/sched',
    'mkdir -p ~/.zfunc && sched completion zsh > ~/.zfunc/_sched   # with fpath=(~/.zfunc $fpath) in ~/.zshrc',
    'mkdir -p ~/.config/fish/completions && sched completion fish > ~/.config/fish/completions/sched.fish',
  ],
  formats: ['table'],
  load: () => import('./print.js'),
});

// Hidden: the completion scripts ask it for values known only at run time.
export const complete = command({
  name: '__complete',
  hidden: true,
  description: 'List completion candidates (used by the completion scripts)',
  input: completeInput,
  examples: ['sched __complete profiles', 'sched --timeout 2 __complete meeting-types'],
  formats: ['table'],
  load: () => import('../../completion/dynamic.js'),
});
