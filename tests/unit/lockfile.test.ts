import { readFileSync } from 'node:fs'
import { expect, test } from 'vitest'

/**
 * `npm ci` refuses a lock that lacks an optionalDependency's entry, and our registry lacks some
 * platform builds, so `npm install` drops them: `node scripts/lock-platforms.mjs` puts them back.
 */
test('behavior: package-lock.json records every optional dependency (npm ci would refuse it otherwise)', () => {
  const lock = JSON.parse(readFileSync(new URL('../../package-lock.json', import.meta.url), 'utf8'))
  const packages: Record<string, { optionalDependencies?: Record<string, string> }> = lock.packages
  const missing: string[] = []
  for (const [path, entry] of Object.entries(packages)) {
    for (const name of Object.keys(entry.optionalDependencies ?? {})) {
      const nested = path === '' ? `node_modules/${name}` : `${path}/node_modules/${name}`
      if (!packages[nested] && !packages[`node_modules/${name}`]) missing.push(name)
    }
  }
  expect(missing, 'run node scripts/lock-platforms.mjs').toEqual([])
})
