import { describe, expect, test, vi } from 'vitest'
import { backoffMs, decide, waitForRead, type FeedState } from '@/lib/feed/rules'

// a chain with 12 s blocks: a period of 12 s; MAX_STALE_SECONDS 60; FEED_WAIT_MS 1 s
const rules = { periodMs: 12_000, maxStaleMs: 60_000, waitMs: 1_000 }
const T = 1_700_000_000_000
const state = (over: Partial<FeedState> = {}): FeedState => ({ fetchedAt: T, ...over })

describe('decide', () => {
  test.each([
    ['a fresh window is a hit', state(), T + 11_999, { kind: 'hit' }],
    [
      'its next read due: the read starts and the request waits for it up to FEED_WAIT_MS (no read measured yet)',
      state(),
      T + 12_000,
      { kind: 'serve', stale: false, read: true, waitUntil: T + 13_000 },
    ],
    [
      'the next read planned earlier than a period (nextReadAt): due then',
      state({ freshUntil: T + 2_500 }),
      T + 2_500,
      { kind: 'serve', stale: false, read: true, waitUntil: T + 3_500 },
    ],
    [
      'the last read took 40 ms: the request waits up to twice that plus 50 ms',
      state({ lastReadMs: 40 }),
      T + 12_000,
      { kind: 'serve', stale: false, read: true, waitUntil: T + 12_130 },
    ],
    [
      'a read already under way: no second read; waited for until twice the last read after it started',
      state({ readingSince: T + 12_000, lastReadMs: 40 }),
      T + 12_100,
      { kind: 'serve', stale: false, read: false, waitUntil: T + 12_130 },
    ],
    [
      'a read under way for longer than that: answered at once from the window held',
      state({ readingSince: T + 12_000, lastReadMs: 40 }),
      T + 12_200,
      { kind: 'serve', stale: false, read: false },
    ],
    [
      'a slow provider (the last read took longer than FEED_WAIT_MS): no request waits for it',
      state({ lastReadMs: 3_000 }),
      T + 12_000,
      { kind: 'serve', stale: false, read: true },
    ],
    [
      'two periods late, the read still under way: current (the cap covers an answer three periods old)',
      state({ readingSince: T + 12_000, lastReadMs: 3_000 }),
      T + 35_999,
      { kind: 'serve', stale: false, read: false },
    ],
    [
      'three periods old: served, marked stale',
      state({ readingSince: T + 12_000, lastReadMs: 3_000 }),
      T + 36_000,
      { kind: 'serve', stale: true, read: false },
    ],
    [
      'a read failed since: stale, and no read (nor wait) within the back-off',
      state({ failure: { until: T + 13_000 } }),
      T + 12_500,
      { kind: 'serve', stale: true, read: false },
    ],
    [
      'past the back-off: stale until a read succeeds, and a read starts',
      state({ failure: { until: T + 13_000 }, lastReadMs: 40 }),
      T + 13_000,
      { kind: 'serve', stale: true, read: true, waitUntil: T + 13_130 },
    ],
    [
      'at MAX_STALE_SECONDS: still served, stale',
      state({ readingSince: T + 59_000, lastReadMs: 3_000 }),
      T + 60_000,
      { kind: 'serve', stale: true, read: false },
    ],
    ['past MAX_STALE_SECONDS: the request waits for a read', state(), T + 60_001, { kind: 'wait' }],
    ['past it within a back-off: the failure is the answer', state({ failure: { until: T + 61_000 } }), T + 60_500, { kind: 'failing' }],
    ['no window: wait', state({ fetchedAt: undefined }), T, { kind: 'wait' }],
    ['no window within a back-off: failing', state({ fetchedAt: undefined, failure: { until: T + 1 } }), T, { kind: 'failing' }],
  ] as const)('behavior: %s', (_, s, now, want) => {
    expect(decide(s, now, rules)).toEqual(want)
  })

  test('behavior: once a chain has a window young enough, no request waits longer than FEED_WAIT_MS, whatever the reads do', () => {
    for (let now = T; now <= T + 60_000; now += 250) {
      for (const readingSince of [undefined, now - 5_000, now]) {
        for (const lastReadMs of [undefined, 5, 900, 5_000]) {
          for (const failure of [undefined, { until: now + 1_000 }, { until: now - 1 }]) {
            const d = decide(state({ readingSince, lastReadMs, failure }), now, rules)
            expect(d.kind).not.toBe('wait')
            if (d.kind === 'serve' && d.waitUntil !== undefined) expect(d.waitUntil - now).toBeLessThanOrEqual(rules.waitMs)
          }
        }
      }
    }
  })

  test('behavior: FEED_WAIT_MS=0 never holds a request for a read', () => {
    expect(decide(state(), T + 12_000, { ...rules, waitMs: 0 })).toEqual({ kind: 'serve', stale: false, read: true })
  })
})

describe('waitForRead', () => {
  test('behavior: no read, no wait; a read is waited for while it can still come in time', () => {
    expect(waitForRead(T, undefined, 40, 1_000)).toBeUndefined()
    expect(waitForRead(T, T, undefined, 1_000)).toBe(T + 1_000)
    expect(waitForRead(T, T, 200, 1_000)).toBe(T + 450)
    expect(waitForRead(T + 500, T, 200, 1_000)).toBeUndefined()
    expect(waitForRead(T, T, 1_001, 1_000)).toBeUndefined()
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
  // the first import of lib/feed/feeds transforms most of lib/: a budget for that, not for the check
  test('behavior: windows are keyed on the nodes they come from, never on their URLs in the clear', { timeout: 30_000 }, async () => {
    vi.doMock('next/server', () => ({ after: () => {} }))
    const { sourceScope } = await import('@/lib/feed/feeds')
    const a = sourceScope({ rpcUrls: ['https://a.example/KEY'] })
    expect(a).toMatch(/^[0-9a-f]{16}$/)
    expect(a).not.toContain('KEY')
    expect(sourceScope({ rpcUrls: ['https://a.example/KEY'] })).toBe(a)
    expect(sourceScope({ rpcUrls: ['https://b.example/KEY'] })).not.toBe(a)
  })
})
