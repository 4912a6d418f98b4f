import { describe, expect, test } from 'vitest'
import { assessReadiness, describeUnready } from '@/lib/http/readiness'

const NOW = 1_800_000_000_000
const w = (chainId: number, ageMs: number, ttlMs = 12_000) => ({ chainId, fetchedAt: NOW - ageMs, headNumber: 100, ttlMs })

describe('assessReadiness', () => {
  test('default: ready when every configured chain holds a window no older than MAX_STALE_SECONDS', () => {
    const r = assessReadiness({ chainIds: [1, 10], windows: [w(1, 500), w(10, 60_999)], errors: new Map(), now: NOW, maxStaleSeconds: 60 })
    expect(r.ready).toBe(true)
    expect(r.chains).toEqual([
      { chainId: 1, ready: true, ageSeconds: 0, block: 100 },
      { chainId: 10, ready: true, ageSeconds: 60, block: 100 },
    ])
  })

  test.each([
    ['a chain never read', [w(1, 0)], [1, 2], { chainId: 2, ready: false, reason: 'never read', error: 'UpstreamUnavailableError' }],
    ['a window past MAX_STALE_SECONDS', [w(1, 0), w(2, 61_000)], [1, 2], { chainId: 2, ready: false, reason: 'stale', ageSeconds: 61 }],
  ])('behavior: not ready with %s', (_, windows, chainIds, unready) => {
    const r = assessReadiness({ chainIds, windows, errors: new Map([[2, 'UpstreamUnavailableError']]), now: NOW, maxStaleSeconds: 60 })
    expect(r.ready).toBe(false)
    expect(r.chains[1]).toMatchObject(unready)
  })

  test('behavior: a window within its cache period is ready even past a shorter MAX_STALE_SECONDS', () => {
    const at = (ageMs: number) =>
      assessReadiness({ chainIds: [1], windows: [w(1, ageMs, 12_000)], errors: new Map(), now: NOW, maxStaleSeconds: 2 })
    expect(at(11_999).ready).toBe(true)
    expect(at(12_000).chains[0]).toMatchObject({ ready: false, reason: 'stale', ageSeconds: 12 })
  })

  test('behavior: a window held for a chain no longer configured does not count; no chain configured is not ready', () => {
    expect(assessReadiness({ chainIds: [1], windows: [w(2, 0)], errors: new Map(), now: NOW, maxStaleSeconds: 60 }).ready).toBe(false)
    expect(assessReadiness({ chainIds: [], windows: [], errors: new Map(), now: NOW, maxStaleSeconds: 60 }).ready).toBe(false)
  })
})

describe('describeUnready', () => {
  test('default: names each chain and why', () => {
    const r = assessReadiness({
      chainIds: [1, 2, 3],
      windows: [w(1, 0), w(2, 90_400)],
      errors: new Map([[3, 'UpstreamUnavailableError']]),
      now: NOW,
      maxStaleSeconds: 60,
    })
    expect(describeUnready(r)).toBe('Not ready: chain 2 stale for 90 s; chain 3 never read (UpstreamUnavailableError).')
    expect(describeUnready({ ready: false, chains: [] })).toBe('Not ready: no chain is configured.')
  })
})
