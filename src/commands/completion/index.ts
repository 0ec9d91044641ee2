import { command } from '../define.js';
import { printInput, completeInput } from './inputs.js';

export const completion = command({
  name: 'completion',
  description: 'Print the shell completion script for bash, zsh or fish',
  input: printInput,
  examples: [
    'sched completion bash > /etc/bash_completion.d/sched',
    'sched completion zsh > "${fpath[1]}/_sched"',
    'sched completion fish > ~/.config/fish/completions/sched.fish',
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
