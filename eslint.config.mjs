// ESLint flat config: Next's core-web-vitals and TypeScript rules (with React and React hooks), on
// every source file of the tree; Prettier owns the formatting (npm run format).
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import { defineConfig, globalIgnores } from 'eslint/config'

/**
 * The service's layers, bottom first (docs/development.md). A module imports only from its own
 * folder and lower layers; folders of one layer do not import each other; nothing of the service
 * imports the tools in scripts/.
 */
const LAYERS = [
  ['lib/core'], // pure, by concern: fee-math, chain-rules, evaluation, contract (schemas, errors, bodies)
  ['lib/runtime'], // process plumbing: process singletons, deadlines, the store's markers
  ['lib/auth'], // credentials: API_KEYS's syntax (which lib/env.ts validates with the rest), keys, identity
  ['lib/env'], // the settings' schemas by concern (access, service, shared syntaxes), which lib/env.ts joins
  ['lib/env.ts', 'lib/metrics'], // configuration, counters
  ['lib/log'], // the logger (pino): reads LOG_LEVEL from lib/env.ts, so one layer above it
  ['lib/chains'], // the chain registry
  ['lib/upstream', 'lib/store'], // the JSON-RPC adapter; memory or Redis
  ['lib/feed', 'lib/ratelimit'], // freshness and single-flight; quotas
  ['lib/fees'], // the service API the handlers and pages call
  ['lib/http'], // error → status, headers, identity, responses
  ['lib/blocknative'], // Blocknative's Gas Platform dialect: a translation of lib/fees' answers, through lib/http's guard
  ['app', 'middleware.ts', 'instrumentation.ts'],
]
const zones = LAYERS.flatMap((layer, i) =>
  layer.map((target) => ({
    target: `./${target}`,
    from: [...LAYERS.slice(i + 1).flat(), ...layer.filter((other) => other !== target), 'scripts'].map((f) => `./${f}`),
    message: `${target} is in layer ${i}: it may import only lower layers (see LAYERS in eslint.config.mjs)`,
  })),
)

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', 'artifacts/**', 'next-env.d.ts']),
  {
    files: ['lib/**', 'app/**', 'middleware.ts', 'instrumentation.ts'],
    // import/no-cycle follows our own modules only: without this it parsed every package they import (viem, next,
    // zod…) to map their exports, 40 of lint's 56 s, for cycles ignoreExternal then dropped anyway
    settings: { 'import/ignore': ['node_modules'] },
    rules: {
      'import/no-restricted-paths': [
        'error',
        {
          zones: [
            ...zones,
            // the UI (client components) imports types, zod schemas and units, never server modules
            {
              target: './app/_components',
              from: './lib',
              except: ['./core'],
              message: 'client components import only lib/core (types, schemas, units)',
            },
          ],
        },
      ],
      'import/no-cycle': ['error', { ignoreExternal: true }],
    },
  },
  {
    // the service logs through lib/log (pino: levels, redaction, JSON); a stray console call is a
    // leftover (middleware.ts and instrumentation.ts write their one configuration line themselves)
    files: ['lib/**', 'app/**'],
    rules: { 'no-console': 'error' },
  },
  {
    // the pure core: no framework, no network, no store, no process
    files: ['lib/core/**'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              group: ['next', 'next/*', '@redis/*', '@fortedigital/*', 'viem', 'viem/*', 'node:*', 'server-only'],
              message: 'lib/core is pure',
            },
          ],
        },
      ],
    },
  },
  {
    rules: {
      // an unused binding is a mistake, except a deliberately ignored one spelled _x
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
])
