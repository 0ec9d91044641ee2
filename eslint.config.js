// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

/**
 * The layers (ARCHITECTURE.md): what each lower folder must never import. A test plants a
 * violation of each rule and expects the lint to fail (test/rules/layers.test.ts).
 */
const UPWARD = ['**/commands/**', '**/cli.js', '**/main.js'];
/** The context layer (what every command receives): above every folder of the table below it. */
const CONTEXT = ['**/context.js', '**/prompt.js'];
const layer = (files, group, message) => ({
  files,
  rules: { 'no-restricted-imports': ['error', { patterns: [{ group, message }] }] },
});
export const LAYERS = [
  layer(
    ['src/api/**/*.ts'],
    [...UPWARD, '**/output/**', '**/bulk/**', '**/sandbox/**', '**/domain/**', '**/context.js'],
    'api/ is the HTTP client: it knows nothing of commands, output, bulk jobs or the sandbox.',
  ),
  layer(
    ['src/output/**/*.ts'],
    [...UPWARD, ...CONTEXT, '**/api/**', '**/bulk/**', '**/sandbox/**', '**/domain/**'],
    'output/ renders values: it knows nothing of commands, the context or HTTP.',
  ),
  layer(
    ['src/domain/**/*.ts'],
    [...UPWARD, ...CONTEXT, '**/sandbox/**', '**/bulk/**'],
    'domain/webhooks/ is the domain of deliveries and sync: commands use it (and the context), never the reverse.',
  ),
  layer(
    ['src/sandbox/**/*.ts'],
    // api/url.ts and config/ownership.ts are import-free leaves (URL helpers, the file trust
    // rule the config and the --state file share), not the client.
    [
      ...UPWARD,
      ...CONTEXT,
      '**/bulk/**',
      '**/config/**',
      '!**/config/ownership.js',
      '**/api/*',
      '!**/api/types.js',
      '!**/api/url.js',
    ],
    'the sandbox shares only api/types (and the import-free api/url, config/ownership) with the client (a bug in one must not hide in the other).',
  ),
  layer(
    ['src/mcp/**/*.ts'],
    [...UPWARD, '**/sandbox/**', '**/output/**', '**/config/**', '**/context.js', '**/io.js'],
    'mcp/ maps tools to the API and the domain: the command gives it the client and the context, it imports neither.',
  ),
  layer(
    ['src/bulk/**/*.ts', 'src/config/**/*.ts', 'src/http/**/*.ts', 'src/text/**/*.ts'],
    [...UPWARD, ...CONTEXT, '**/output/**'],
    'a lower layer never imports commands/, cli.ts, the context or output/.',
  ),
];

/** The function-size limits (warnings): lines, nesting, branches. */
export const SIZE_RULES = {
  'max-lines-per-function': ['warn', { max: 60, skipBlankLines: true, skipComments: true }],
  'max-depth': ['warn', 4],
  complexity: ['warn', 15],
};

export default tseslint.config(
  {
    ignores: ['node_modules/', 'dist/', 'coverage/', 'completions/', 'reports/', '.stryker-tmp*/'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: {
      globals: {
        process: 'readonly',
        console: 'readonly',
        Buffer: 'readonly',
        URL: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        setInterval: 'readonly',
        clearInterval: 'readonly',
        AbortController: 'readonly',
        AbortSignal: 'readonly',
        TextEncoder: 'readonly',
        TextDecoder: 'readonly',
        URLSearchParams: 'readonly',
        fetch: 'readonly',
        performance: 'readonly',
        structuredClone: 'readonly',
        queueMicrotask: 'readonly',
      },
    },
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
    },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/process-main.ts'],
    rules: {
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'exit',
          message: 'Only src/process-main.ts exits; throw a typed error.',
        },
      ],
      'no-console': 'error',
    },
  },
  {
    // Where the hard rooms are: warnings, never errors (`npm run lint` passes with them), so
    // the next person sees a long or deeply nested function before adding to it.
    // `npm run size` lists them longest first (scripts/size-report.mjs, ARCHITECTURE.md).
    files: ['src/**/*.ts'],
    rules: SIZE_RULES,
  },
  ...LAYERS,
  {
    // Results reach stdout through one renderer (src/output/render.ts), never io.out directly.
    files: ['src/commands/**/*.ts', 'src/completion/dynamic.ts'],
    rules: {
      'no-restricted-syntax': [
        'error',
        {
          selector: "CallExpression[callee.type='MemberExpression'][callee.property.name='out']",
          message: 'write results through src/output/render.ts (renderList, renderObject, ...)',
        },
      ],
    },
  },
);
