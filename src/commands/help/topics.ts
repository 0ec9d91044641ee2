// Help topics beyond per-command help: `sched help environment`, `sched help exit-codes`. The
// variables and exit codes are data, so docs/ and the man page list exactly the same ones.

/** Environment variables sched reads, with what each one does ("\n" where help breaks the line). */
export const ENVIRONMENT: ReadonlyArray<readonly [name: string, meaning: string]> = [
  ['SCHED_API_KEY', 'API key; overrides the key stored in the profile'],
  ['SCHED_BASE_URL', "API base URL; overrides the profile's (--base-url overrides both)"],
  ['SCHED_PROFILE', 'profile to use when --profile is not given (default: default)'],
  ['SCHED_CONFIG_DIR', 'directory of the config file (mode 0700; the file is 0600)'],
  ['SCHED_WEBHOOK_SECRET', 'webhook secret for sig, events send, webhooks listen and add'],
  [
    'SCHED_MCP_LEVEL',
    'level of sched mcp when neither --read-only nor --allow-write\nis given: read-only, default or allow-write (an MCP Bundle\nsets it from its "allow webhook changes" setting)',
  ],
  [
    'SCHED_COMPLETION_TTL',
    'seconds TAB completion keeps the slugs and webhooks it read\n(default 60; 0: ask the API on every TAB); kept per\nprofile and base URL in ~/.cache/sched/completion, no key',
  ],
  ['NO_COLOR', 'any value turns colour off (like --no-color)'],
  ['FORCE_COLOR', 'forces colour even when output is not a terminal'],
  ['COLUMNS', "width tables are laid out for (default: the terminal's)"],
  [
    'SCHED_FORCE_TTY',
    'any value but 0/false: terminal-style layout on a pipe\n(tables with headers, pretty JSON), e.g. for a log;\ncolour still follows NO_COLOR/FORCE_COLOR/a terminal',
  ],
  [
    'HTTPS_PROXY, HTTP_PROXY, ALL_PROXY, NO_PROXY',
    'proxy settings for requests to the API and deliveries\nsent to a receiver (events send/replay, --forward-to);\nALL_PROXY when the scheme has none; loopback is never proxied',
  ],
  ['NODE_EXTRA_CA_CERTS', 'extra certificate authorities (PEM file) to trust'],
  [
    'CI',
    'set (and not empty, 0 or false): never prompt, as --no-input;\nwebhooks add prints no generated secret into the log\nunless asked (--secret-out, --print-secret)',
  ],
];

/** Every exit code sched gives, with its meaning. */
export const EXIT_CODES: ReadonlyArray<readonly [code: number, meaning: string]> = [
  [0, 'success (for sig verify: the signature is valid; a server stopped by Ctrl-C or SIGTERM)'],
  [
    1,
    'failure: server error, network error, receiver error, sig verify found it invalid, a confirmation was declined, or stdout (or a file named by a flag) could not be written',
  ],
  [2, 'usage error or invalid input, found locally or answered 422 by the API'],
  [
    4,
    "authentication: no key (or none from the profile's key command), or the API rejected it (401/403)",
  ],
  [5, 'not found (404)'],
  [130, 'interrupted (Ctrl-C) while working; whatever was already done is reported first'],
  [143, 'terminated (SIGTERM) while working; whatever was already done is reported first'],
];

const NAME_WIDTH = 23;

function environmentText(): string {
  const indent = `\n  ${' '.repeat(NAME_WIDTH)}`;
  const rows = ENVIRONMENT.map(([name, meaning]) => {
    const text = meaning.replace(/\n/g, indent);
    return name.length < NAME_WIDTH
      ? `  ${name.padEnd(NAME_WIDTH)}${text}`
      : `  ${name}${indent}${text}`;
  });
  return `Environment variables\n\n${rows.join('\n')}\n`;
}

function exitCodesText(): string {
  const rows = EXIT_CODES.map(([code, meaning]) => `  ${String(code).padEnd(5)}${meaning}`);
  return `Exit codes\n\n${rows.join('\n')}\n`;
}

export const HELP_TOPICS: Record<string, { summary: string; text: string }> = {
  environment: {
    summary: 'environment variables sched reads',
    text: environmentText(),
  },
  'exit-codes': {
    summary: 'what each exit code means',
    text: exitCodesText(),
  },
};
