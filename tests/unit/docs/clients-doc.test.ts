import { readFileSync } from 'node:fs'
import { describe, expect, test } from 'vitest'

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8')

/** docs/clients.md's quoted modules: each ```ts block right after a `<!-- quoted: <path> -->` line. */
function quotedBlocks(markdown: string): Map<string, string> {
  const blocks = new Map<string, string>()
  for (const [, path, code] of markdown.matchAll(/<!-- quoted: (\S+) -->\n```ts\n([\s\S]*?)```\n/g)) blocks.set(path!, code!)
  return blocks
}

describe('docs/clients.md', () => {
  const blocks = quotedBlocks(read('docs/clients.md'))

  test('default: quotes the three client modules the integration test runs (tests/integration/clients.test.ts)', () => {
    expect([...blocks.keys()].sort()).toEqual([
      'scripts/clients/ethers-fees.ts',
      'scripts/clients/stream-proxy.ts',
      'scripts/clients/viem-fees.ts',
    ])
  })

  test.each(['scripts/clients/viem-fees.ts', 'scripts/clients/ethers-fees.ts', 'scripts/clients/stream-proxy.ts'])(
    'behavior: the block quoting %s is the file, byte for byte',
    (path) => {
      expect(blocks.get(path)).toBe(read(path))
    },
  )
})
