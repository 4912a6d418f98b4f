import { afterEach, beforeEach, describe, expect, test, vi } from 'vitest'
import { getServerEnv } from '@/lib/env'
import { rateLimitHeaders, slidingDecision } from '@/lib/ratelimit/sliding-window'
import { SlidingWindowCounters } from '@/lib/ratelimit/counters'

describe('slidingDecision', () => {
  const policy = { limit: 10, windowSeconds: 60 }
  test.each([
    // previous, current (this request included), ms into the window → allowed, remaining
    { previous: 0, current: 10, elapsedMs: 59_000, allowed: true, remaining: 0 },
    { previous: 0, current: 11, elapsedMs: 59_000, allowed: false, remaining: 0 },
    { previous: 10, current: 1, elapsedMs: 1_000, allowed: false, remaining: 0 }, // 10 × 59/60 + 1 > 10
    { previous: 10, current: 1, elapsedMs: 6_000, allowed: true, remaining: 0 }, // 10 × 54/60 + 1 = 10
    { previous: 10, current: 6, elapsedMs: 30_000, allowed: false, remaining: 0 }, // 5 + 6
    { previous: 10, current: 5, elapsedMs: 30_000, allowed: true, remaining: 0 },
    { previous: 4, current: 1, elapsedMs: 45_000, allowed: true, remaining: 8 }, // 1 + 1
  ])('args: previous $previous, current $current at $elapsedMs ms → $allowed', ({ allowed, remaining, ...counts }) => {
    expect(slidingDecision(policy, counts)).toMatchObject({ allowed, remaining })
  })

  test('behavior: a refused request says when one more fits (Retry-After)', () => {
    // 10 × (60 − t) / 60 + 1 ≤ 10 from t = 6 s: 5 s after 1 s into the window
    expect(slidingDecision(policy, { previous: 10, current: 1, elapsedMs: 1_000 }).resetSeconds).toBe(5)
    // this window is full: in the next one, once 1 of its 10 has slid out (6 s), after the 1 s left here
    expect(slidingDecision(policy, { previous: 0, current: 11, elapsedMs: 59_000 }).resetSeconds).toBe(7)
  })

  test('behavior: IETF RateLimit headers; limit 0 is unlimited and has none', () => {
    expect(rateLimitHeaders(slidingDecision({ limit: 3, windowSeconds: 10 }, { previous: 0, current: 2, elapsedMs: 2_000 }))).toEqual({
      'ratelimit-limit': '3',
      'ratelimit-remaining': '1',
      'ratelimit-reset': '8',
      'ratelimit-policy': '3;w=10',
    })
    expect(slidingDecision({ limit: 0, windowSeconds: 1 }, { previous: 5, current: 9, elapsedMs: 0 }).allowed).toBe(true)
    expect(rateLimitHeaders(slidingDecision({ limit: 0, windowSeconds: 1 }, { previous: 0, current: 1, elapsedMs: 0 }))).toEqual({})
  })
})

describe('SlidingWindowCounters (rate-limiter-flexible in memory, fake timers)', () => {
  beforeEach(() => {
    vi.useFakeTimers()
    vi.setSystemTime(Date.UTC(2026, 10, 22, 13, 0, 0))
  })
  afterEach(() => vi.useRealTimers())

  const policy = { limit: 5, windowSeconds: 10 }
  const burst = async (l: SlidingWindowCounters, n: number, key = 'k') => {
    const out: boolean[] = []
    for (let i = 0; i < n; i++) out.push((await l.check(key, policy)).decision.allowed)
    return out.filter(Boolean).length
  }

  test('default: `limit` requests at once, then refused; the refusals are not counted', async () => {
    const l = new SlidingWindowCounters({ kind: 'memory' })
    expect(await burst(l, 8)).toBe(5)
    const { decision } = await l.check('k', policy)
    expect(decision).toMatchObject({ allowed: false, remaining: 0 })
    // two windows later nothing of this burst counts, however many were refused
    vi.advanceTimersByTime(20_000)
    expect(await burst(l, 5)).toBe(5)
  })

  test('behavior: a boundary burst (the quota at the end of one window, again at the start of the next) passes only the quota', async () => {
    const l = new SlidingWindowCounters({ kind: 'memory' })
    await l.check('warm-up', policy) // opens the anchor: windows are numbered from here
    vi.advanceTimersByTime(9_900) // 100 ms before the window ends
    expect(await burst(l, 5)).toBe(5)
    vi.advanceTimersByTime(200) // 100 ms into the next window
    expect(await burst(l, 5)).toBe(0) // a fixed window would pass 5 more here: 2× the quota
    // the old burst slides out: at 40% into the window 60% of it counts (3), so 2 more fit
    vi.advanceTimersByTime(3_900)
    expect(await burst(l, 5)).toBe(2)
  })

  test('args: cost counts a request as that many units, all or none', async () => {
    const l = new SlidingWindowCounters({ kind: 'memory' })
    expect((await l.check('k', policy, 3)).decision).toMatchObject({ allowed: true, remaining: 2 })
    // 3 more do not fit in the 2 left: refused and not counted, the 2 left said
    expect((await l.check('k', policy, 3)).decision).toMatchObject({ allowed: false, remaining: 2 })
    expect((await l.check('k', policy, 2)).decision).toMatchObject({ allowed: true, remaining: 0 })
    expect((await l.check('k', policy, 1)).decision.allowed).toBe(false)
  })

  test('error: a cost over the limit never fits; it is told two windows at most', async () => {
    const l = new SlidingWindowCounters({ kind: 'memory' })
    const { decision } = await l.check('k', policy, 6)
    expect(decision).toMatchObject({ allowed: false, remaining: 5 })
    expect(decision.resetSeconds).toBeLessThanOrEqual(20)
    // nothing was counted
    expect(await burst(l, 5)).toBe(5)
  })

  test('behavior: keys are counted apart', async () => {
    const l = new SlidingWindowCounters({ kind: 'memory' })
    expect(await burst(l, 6, 'a')).toBe(5)
    expect(await burst(l, 6, 'b')).toBe(5)
  })
})

describe('rate limit configuration', () => {
  test('args: RATE_LIMIT default and RATE_LIMITS per key', () => {
    expect(getServerEnv({}).RATE_LIMIT).toEqual({ limit: 1200, windowSeconds: 60 })
    const env = getServerEnv({ RATE_LIMIT: '10/1', RATE_LIMITS: 'alice=5/60, b=ob=0' })
    expect(env.RATE_LIMIT).toEqual({ limit: 10, windowSeconds: 1 })
    expect(env.RATE_LIMITS).toEqual({ alice: { limit: 5, windowSeconds: 60 }, 'b=ob': { limit: 0, windowSeconds: 1 } })
  })
  test.each(['10', '10/0', 'x/1', '-1/1', '10/604801'])('error: RATE_LIMIT=%s', (v) => {
    expect(() => getServerEnv({ RATE_LIMIT: v })).toThrow(/RATE_LIMIT/)
  })
  test('error: RATE_LIMITS with a window over a week', () => {
    expect(() => getServerEnv({ RATE_LIMITS: 'a=1/604801' })).toThrow(/RATE_LIMITS/)
  })
})

describe('consumeRateLimit', () => {
  test('behavior: a key named like an Object.prototype member gets the default quota, not an unlimited NaN one', async () => {
    const { consumeRateLimit } = await import('@/lib/ratelimit')
    for (const key of ['toString', 'constructor', '__proto__']) {
      const headers = await consumeRateLimit(key)
      expect(headers['ratelimit-limit']).toBe('1200')
      expect(headers['ratelimit-remaining']).toMatch(/^\d+$/)
    }
  })
})
