// The same checkout built with middleware.ts on the Edge runtime, for `npm run bench -- --compare-edge`:
// the working tree's files (tracked, and new ones not ignored) copied to a temporary directory, the
// middleware's `runtime: 'nodejs'` line taken out, node_modules copied as hard links (Turbopack does not
// follow a symlinked node_modules out of the project), and a bench build made there.
import { execFileSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { buildService } from '../devnet/service'

const RUNTIME_LINE = /^\s*runtime: 'nodejs',\n/m

/** Builds the Edge-runtime twin of the checkout at `root`; returns its directory. */
export async function buildEdgeTwin(root = process.cwd()): Promise<string> {
  const dir = join(tmpdir(), 'gas-api-bench-edge')
  rmSync(dir, { recursive: true, force: true })
  const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: root, encoding: 'utf8' })
    .split('\n')
    .filter((f) => f && existsSync(join(root, f)))
  for (const f of files) {
    mkdirSync(dirname(join(dir, f)), { recursive: true })
    copyFileSync(join(root, f), join(dir, f))
  }
  try {
    execFileSync('cp', ['-al', join(root, 'node_modules'), join(dir, 'node_modules')])
  } catch {
    // another filesystem: a real copy
    execFileSync('cp', ['-a', join(root, 'node_modules'), join(dir, 'node_modules')])
  }
  const middleware = join(dir, 'middleware.ts')
  const source = readFileSync(middleware, 'utf8')
  if (!RUNTIME_LINE.test(source)) throw new Error("middleware.ts has no `runtime: 'nodejs',` line to take out")
  writeFileSync(middleware, source.replace(RUNTIME_LINE, ''))
  await buildService(dir)
  return dir
}
