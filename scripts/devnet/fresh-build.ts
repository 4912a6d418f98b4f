import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { buildService } from './service'

/** What `next build` reads: the app, its config and its dependencies' lock. */
const INPUTS = [
  'app',
  'lib',
  'public',
  'middleware.ts',
  'instrumentation.ts',
  'next.config.mjs',
  'tsconfig.json',
  'postcss.config.mjs',
  'package.json',
  'package-lock.json',
]
/** Environment variables next.config.mjs reads at build time. */
const BUILD_ENV = ['NEXT_OUTPUT', 'NEXT_CACHE_HANDLER', 'VERCEL', 'GAS_API_BENCH_BUILD']
/** Written beside BUILD_ID after a build: the fingerprint of the sources it was built from. */
const STAMP = '.next/gas-api-source.sha256'

function files(root: string, path: string): string[] {
  const full = join(root, path)
  if (!existsSync(full)) return []
  if (!statSync(full).isDirectory()) return [path]
  return readdirSync(full)
    .sort()
    .flatMap((name) => files(root, join(path, name)))
}

/** sha256 over every build input's path and bytes, and the build-time environment. */
export function sourceFingerprint(root = process.cwd()): string {
  const hash = createHash('sha256')
  for (const path of INPUTS.flatMap((p) => files(root, p))) {
    hash
      .update(`${relative(root, join(root, path))}\0`)
      .update(readFileSync(join(root, path)))
      .update('\0')
  }
  for (const name of BUILD_ENV) hash.update(`${name}=${process.env[name] ?? ''}\0`)
  return hash.digest('hex')
}

/** Whether `.next` holds a build of exactly the current sources. */
export function buildIsFresh(root = process.cwd()): boolean {
  const stamp = join(root, STAMP)
  return existsSync(join(root, '.next/BUILD_ID')) && existsSync(stamp) && readFileSync(stamp, 'utf8').trim() === sourceFingerprint(root)
}

/**
 * Runs `next build` unless `.next` already holds a build of the current sources, then stamps it:
 * the integration and browser tests never run against a build from before an edit.
 * @returns whether it built
 */
export async function ensureFreshBuild(root = process.cwd()): Promise<boolean> {
  if (buildIsFresh(root)) return false
  console.log(
    existsSync(join(root, '.next/BUILD_ID')) ? 'The build in .next is older than the sources: rebuilding.' : 'No build in .next: building.',
  )
  await buildService(root)
  // fingerprinted after the build: next build may rewrite tsconfig.json
  writeFileSync(join(root, STAMP), `${sourceFingerprint(root)}\n`)
  return true
}
