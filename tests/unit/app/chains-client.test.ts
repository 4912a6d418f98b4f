import { describe, expect, test } from 'vitest'
import { parseChainFreshness } from '@/app/_components/chains-client'

describe('parseChainFreshness', () => {
  test('default: each chain that answered fees, by id; a failed chain has no entry', () => {
    const parsed = parseChainFreshness(
      '1;block=21000000;age=3;interval=12000;stale=?0, 8453;block=5;age=0;interval=2000;stale=?1, 42161;status=503',
      1_000,
    )
    expect([...parsed.keys()]).toEqual([1, 8453])
    expect(parsed.get(1)).toEqual({ blockNumber: 21_000_000, ageAtFetch: 3, receivedAt: 1_000, stale: false, blockIntervalMs: 12_000 })
    expect(parsed.get(8453)?.stale).toBe(true)
  })

  test('args: no header is no chain', () => {
    expect(parseChainFreshness(null, 0).size).toBe(0)
  })
})
