import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from 'vitest'
import { buildIsFresh, sourceFingerprint } from '@/scripts/devnet/fresh-build'

function project() {
  const root = mkdtempSync(join(tmpdir(), 'fresh-build-'))
  mkdirSync(join(root, 'lib/fees'), { recursive: true })
  mkdirSync(join(root, '.next'))
  writeFileSync(join(root, 'lib/fees/a.ts'), 'export const a = 1\n')
  writeFileSync(join(root, 'middleware.ts'), 'export {}\n')
  writeFileSync(join(root, '.next/BUILD_ID'), 'x')
  return root
}

test('behavior: a build stamped with the sources is fresh until a source changes', () => {
  const root = project()
  expect(buildIsFresh(root)).toBe(false) // built, but never stamped
  writeFileSync(join(root, '.next/gas-api-source.sha256'), `${sourceFingerprint(root)}\n`)
  expect(buildIsFresh(root)).toBe(true)
  writeFileSync(join(root, 'lib/fees/a.ts'), 'export const a = 2\n')
  expect(buildIsFresh(root)).toBe(false)
})

test('behavior: a new file, and a build-time variable, change the fingerprint; files outside the build do not', () => {
  const root = project()
  const before = sourceFingerprint(root)
  writeFileSync(join(root, 'README.md'), 'docs\n')
  mkdirSync(join(root, 'tests'))
  writeFileSync(join(root, 'tests/x.test.ts'), 'test\n')
  expect(sourceFingerprint(root)).toBe(before)
  writeFileSync(join(root, 'lib/fees/b.ts'), 'export const b = 1\n')
  const withFile = sourceFingerprint(root)
  expect(withFile).not.toBe(before)
  process.env.NEXT_OUTPUT = 'standalone'
  try {
    expect(sourceFingerprint(root)).not.toBe(withFile)
  } finally {
    delete process.env.NEXT_OUTPUT
  }
})
