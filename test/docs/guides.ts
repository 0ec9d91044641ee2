// The hand-written pages whose examples test/docs/readme.test.ts runs: the README and the
// guides in docs/ it links to (docs/commands/ is generated and run by examples.test.ts).
export const GUIDES = [
  'README.md',
  'docs/scripting.md',
  'docs/ci.md',
  'docs/links.md',
  'docs/webhooks.md',
  'docs/sandbox.md',
  'docs/configuration.md',
  'docs/quality.md',
] as const;
