import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

const root = fileURLToPath(new URL('.', import.meta.url))

/**
 * The unit and integration tests that read ../shared/data (the recorded chain data beside the checkout, never copied
 * into it): those importing the support modules that read it. A user's own clone may not have the
 * folder; then these files are left out, and the run says so, instead of failing with a stack trace.
 */
const SHARED_DATA = join(root, '../shared/data')
const READS_SHARED_DATA = /from '(?:\.\.\/)+support\/(?:shared-data|mainnet-blocks|windows)'/
function testFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? testFiles(join(dir, e.name)) : e.name.endsWith('.test.ts') ? [join(dir, e.name)] : [],
  )
}
const needShared = existsSync(SHARED_DATA)
  ? []
  : [...testFiles(join(root, 'tests/unit')), ...testFiles(join(root, 'tests/integration'))]
      .filter((f) => READS_SHARED_DATA.test(readFileSync(f, 'utf8')))
      .map((f) => relative(root, f))
// (the config is evaluated more than once per run: say it once)
if (needShared.length > 0 && !process.env.GAS_API_SHARED_DATA_NOTICE) {
  process.env.GAS_API_SHARED_DATA_NOTICE = '1'
  console.warn(
    `\n../shared/data is not beside this checkout (${SHARED_DATA}): the ${needShared.length} test files that read recorded chain data are not run:\n` +
      needShared.map((f) => `  - ${f}`).join('\n') +
      '\nThe integration and browser suites use synthetic blocks for their fake nodes instead. CI always has ../shared/data.\n',
  )
}

export default defineConfig({
  // 'server-only' throws outside React's server condition: the tests import server modules directly
  resolve: { alias: { '@': root, 'server-only': join(root, 'tests/support/server-only.ts') } },
  test: {
    projects: [
      {
        extends: true,
        test: { name: 'unit', include: ['tests/unit/**/*.test.ts'], exclude: needShared, environment: 'node' },
      },
      {
        extends: true,
        test: {
          name: 'integration',
          include: ['tests/integration/**/*.test.ts'],
          exclude: needShared,
          globalSetup: ['tests/integration/global-setup.ts'],
          testTimeout: 60_000,
          hookTimeout: 180_000,
          fileParallelism: false,
        },
      },
    ],
  },
})
