import { describe, expect, test, vi } from 'vitest'
import type { ReadFeeWindowParameters } from '@/lib/upstream/read-from-url'
import { makeWindow } from '../../support/windows'

vi.mock('next/cache', () => ({ unstable_cache: <T>(fn: T) => fn }))
const { timedRead } = await import('@/lib/feed/timed-read')
const { nextRead } = await import('@/lib/feed/read-timing/next-read')

const NOW = 1_800_000_000_000
const MAX_STALE_MS = 60_000

/** What one read is handed as its last window, when the window held was read `ageMs` before. */
async function handed(ageMs: number): Promise<Pick<ReadFeeWindowParameters, 'previous' | 'previousVouches'>> {
  const held = { ...makeWindow({ baseFees: [1n, 1n], next: 1n, intervalMs: 2_000 }), fetchedAt: NOW - ageMs }
  let params: ReadFeeWindowParameters | undefined
  await timedRead({
    chain: { id: 1, name: 'sim', rpcUrls: ['http://127.0.0.1:1'] },
    settings: { rpcTimeoutMs: 1_000, maxStaleMs: MAX_STALE_MS },
    read: async (p) => {
      params = p
      return { ...held, fetchedAt: NOW }
    },
    plan: nextRead,
    held,
    published: undefined,
    startedAt: NOW,
    now: () => NOW,
  })
  return { previous: params?.previous, previousVouches: params?.previousVouches }
}

describe('timedRead', () => {
  test('behavior: the window held is the read’s last window up to MAX_STALE_SECONDS, vouching for the head up to half of it', async () => {
    const young = await handed(MAX_STALE_MS / 2)
    expect(young.previous?.fetchedAt).toBe(NOW - MAX_STALE_MS / 2)
    expect(young.previousVouches).toBeUndefined()
    const old = await handed(MAX_STALE_MS / 2 + 1)
    expect(old.previous?.fetchedAt).toBe(NOW - MAX_STALE_MS / 2 - 1)
    expect(old.previousVouches).toBe(false)
    expect(await handed(MAX_STALE_MS + 1)).toEqual({ previous: undefined, previousVouches: undefined })
  })
})
