// ESLint flat config: Next's core-web-vitals and TypeScript rules (with React and React hooks), on
// every source file of the tree; Prettier owns the formatting (npm run format).
import nextVitals from 'eslint-config-next/core-web-vitals'
import nextTs from 'eslint-config-next/typescript'
import { defineConfig, globalIgnores } from 'eslint/config'

export default defineConfig([
  ...nextVitals,
  ...nextTs,
  globalIgnores(['.next/**', 'node_modules/**', 'test-results/**', 'playwright-report/**', 'coverage/**', 'artifacts/**', 'next-env.d.ts']),
  {
    rules: {
      // an unused binding is a mistake, except a deliberately ignored one spelled _x
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
])
