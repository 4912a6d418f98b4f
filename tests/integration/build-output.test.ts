// What a normal production build holds: the service, not its tools.
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, test } from 'vitest'
import { api } from './helpers'

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name)
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.js') ? [path] : []
  })
}

describe('the production build', () => {
  test("behavior: the benchmark's floor route is not reachable: 404", async () => {
    for (const path of ['/bench-floor', '/bench-floor/31337']) expect((await api(path)).status).toBe(404)
  })

  // the backtest's runner and judges are the service's own since GET /accuracy runs them on the live
  // window (lib/core/evaluation/backtest.ts, judge.ts); the reference strategies, datasets and tools are not
  test('behavior: the server output holds no reference strategy, dataset reader, recorder, replay or devnet code', () => {
    const server = files(join(process.cwd(), '.next', 'server'))
    expect(server.length).toBeGreaterThan(10)
    // string literals that only the tools in scripts/ carry (names can be minified, literals cannot)
    const markers = [
      'gas-api-blocks/1',
      'a replay needs at least 2 blocks',
      'evm_mine',
      'bench-floor',
      'metamask-feehistory',
      'infura-shape',
      'blockData.csv.gz',
    ]
    for (const file of server) {
      const text = readFileSync(file, 'utf8')
      for (const marker of markers) expect(text.includes(marker), `${marker} in ${file}`).toBe(false)
    }
  })
})
