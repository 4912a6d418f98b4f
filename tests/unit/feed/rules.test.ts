import { describe, expect, test } from 'vitest'
import { backoffMs, decide, type FeedState } from '@/lib/feed/rules'

// a chain with 12 s blocks: fresh for 12 s; MAX_STALE_SECONDS 60
const rules = { ttlMs: 12_000, maxStaleMs: 60_000 }
const T = 1_700_000_000_000
const state = (over: Partial<FeedState> = {}): FeedState => ({ fetchedAt: T, reading: false, ...over })

describe('decide', () => {
  test.each([
    ['a fresh window is a hit', state(), T + 11_999, { kind: 'hit' }],
    ['past its freshness: served at once, a read starts behind it', state(), T + 12_000, { kind: 'serve', stale: false, read: true }],
    [
      'a read already under way: served, no second read',
      state({ reading: true }),
      T + 12_000,
      { kind: 'serve', stale: false, read: false },
    ],
    [
      'two intervals late, the read still under way: current (the cap covers an answer three periods old)',
      state({ reading: true }),
      T + 35_999,
      { kind: 'serve', stale: false, read: false },
    ],
    ['three periods old: served, marked stale', state({ reading: true }), T + 36_000, { kind: 'serve', stale: true, read: false }],
    [
      'a read failed since: stale, and no read within the back-off',
      state({ failure: { until: T + 13_000 } }),
      T + 12_500,
      { kind: 'serve', stale: true, read: false },
    ],
    [
      'past the back-off: stale until a read succeeds, and a read starts',
      state({ failure: { until: T + 13_000 } }),
      T + 13_000,
      { kind: 'serve', stale: true, read: true },
    ],
    ['at MAX_STALE_SECONDS: still served, stale', state({ reading: true }), T + 60_000, { kind: 'serve', stale: true, read: false }],
    ['past MAX_STALE_SECONDS: the request waits for a read', state(), T + 60_001, { kind: 'wait' }],
    ['past it within a back-off: the failure is the answer', state({ failure: { until: T + 61_000 } }), T + 60_500, { kind: 'failing' }],
    ['no window: wait', state({ fetchedAt: undefined }), T, { kind: 'wait' }],
    ['no window within a back-off: failing', state({ fetchedAt: undefined, failure: { until: T + 1 } }), T, { kind: 'failing' }],
  ] as const)('behavior: %s', (_, s, now, want) => {
    expect(decide(s, now, rules)).toEqual(want)
  })

  test('behavior: once a chain has a window young enough, no request waits for the upstream, whatever the reads do', () => {
    for (let now = T; now <= T + 60_000; now += 250) {
      for (const reading of [false, true]) {
        for (const failure of [undefined, { until: now + 1_000 }, { until: now - 1 }]) {
          expect(decide(state({ reading, failure }), now, rules).kind).not.toBe('wait')
        }
      }
    }
  })
})

describe('backoffMs', () => {
  test('behavior: 1 s after a failure; 5 minutes for a chain never seen with a fee market', () => {
    expect(backoffMs(false, false)).toBe(1_000)
    expect(backoffMs(true, true)).toBe(1_000)
    expect(backoffMs(true, false)).toBe(300_000)
  })
})

describe('sourceScope', () => {
  test('behavior: windows are keyed on the nodes they come from, never on their URLs in the clear', async () => {
    const { sourceScope } = await import('@/lib/feed/fee-window')
    const a = sourceScope({ rpcUrls: ['https://a.example/KEY'] })
    expect(a).toMatch(/^[0-9a-f]{16}$/)
    expect(a).not.toContain('KEY')
    expect(sourceScope({ rpcUrls: ['https://a.example/KEY'] })).toBe(a)
    expect(sourceScope({ rpcUrls: ['https://b.example/KEY'] })).not.toBe(a)
  })
})
