// Shared set-up of the core command tests (types, link, webhooks add/ls/rm): one sandbox on
// port 0 per file, a throw-away config directory, a clean request log and state per test,
// and a scripted Prompter for the interactive paths.
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { runSched, type RunOptions, type RunResult } from './run.js';
import { useConfigDir } from './config-dir.js';
import { startTestSandbox, type TestSandbox } from './sandbox.js';
import type { SandboxOptions } from '../../src/sandbox/index.js';
import type { Prompter } from '../../src/prompt.js';

export interface Harness {
  /** The sandbox of this file (set in beforeAll). */
  readonly sb: TestSandbox;
  /** SCHED_CONFIG_DIR for this file. */
  readonly config: string;
  /** Runs `sched <argv>` in-process against the sandbox; opts.env is added on top. */
  run(argv: string[], opts?: RunOptions): Promise<RunResult>;
  /** Env pointing at another server (a fault server), with this file's config directory. */
  envFor(baseUrl: string): Record<string, string>;
}

export function useSandbox(options: SandboxOptions = {}): Harness {
  let sb: TestSandbox | undefined;
  const configDir = useConfigDir('sched-core-');
  beforeAll(async () => {
    sb = await startTestSandbox(options);
  });
  afterAll(async () => {
    await sb?.close();
  });
  beforeEach(() => {
    sb!.requests.length = 0;
    sb!.state.webhooks.clear();
    sb!.state.links.clear();
  });
  return {
    get sb() {
      return sb!;
    },
    get config() {
      return configDir.path;
    },
    run(argv, opts = {}) {
      return runSched(argv, {
        ...opts,
        env: { ...sb!.env, SCHED_CONFIG_DIR: configDir.path, ...opts.env },
      });
    },
    envFor(baseUrl) {
      return {
        SCHED_BASE_URL: baseUrl,
        SCHED_API_KEY: 'test-key',
        SCHED_CONFIG_DIR: configDir.path,
      };
    },
  };
}

/** A Prompter answering from `answers`; any other question fails the test. */
export function fakePrompter(answers: Partial<Prompter>): Prompter {
  const unexpected = (message: string): never => {
    throw new Error(`unexpected prompt: ${message}`);
  };
  return {
    select: unexpected,
    checkbox: unexpected,
    input: unexpected,
    password: unexpected,
    confirm: unexpected,
    ...answers,
  } as Prompter;
}

export const lines = (s: string): string[] => s.trimEnd().split('\n').filter(Boolean);
