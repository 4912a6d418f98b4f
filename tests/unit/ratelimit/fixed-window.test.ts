import { describe, expect, test } from 'vitest'
import { getServerEnv } from '@/lib/env'
import { FixedWindowLimiter, rateLimitHeaders } from '@/lib/ratelimit/fixed-window'

describe('FixedWindowLimiter', () => {
  const policy = { limit: 3, windowSeconds: 10 }
  test('default: allows `limit` requests per window, then refuses until the window resets', () => {
    const l = new FixedWindowLimiter()
    const t0 = 1_700_000_004_321 // any instant: the window opens with the key's first request
    expect([0, 1, 2].map((i) => l.check('k', policy, t0 + i).remaining)).toEqual([2, 1, 0])
    const refused = l.check('k', policy, t0 + 4_000)
    expect(refused).toMatchObject({ allowed: false, remaining: 0, resetSeconds: 6 })
    expect(l.check('k', policy, t0 + 9_999).allowed).toBe(false)
    expect(l.check('k', policy, t0 + 10_000)).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 10 })
  })

  test('behavior: no wall-clock boundary: a quota spent just before a round hour stays spent after it', () => {
    const l = new FixedWindowLimiter()
    const hour = { limit: 5, windowSeconds: 3600 }
    const beforeTheHour = Date.UTC(2026, 10, 22, 13, 59, 59, 500)
    for (let i = 0; i < 5; i++) expect(l.check('k', hour, beforeTheHour).allowed).toBe(true)
    expect(l.check('k', hour, beforeTheHour + 1_000)).toMatchObject({ allowed: false, resetSeconds: 3599 })
  })

  test('behavior: keys are counted apart; limit 0 is unlimited', () => {
    const l = new FixedWindowLimiter()
    for (let i = 0; i < 3; i++) l.check('a', policy, 0)
    expect(l.check('a', policy, 1).allowed).toBe(false)
    expect(l.check('b', policy, 1).allowed).toBe(true)
    for (let i = 0; i < 1000; i++) expect(l.check('c', { limit: 0, windowSeconds: 1 }, i).allowed).toBe(true)
  })

  test('behavior: IETF RateLimit headers', () => {
    const l = new FixedWindowLimiter()
    l.check('k', policy, 2_000)
    expect(rateLimitHeaders(l.check('k', policy, 4_000))).toEqual({
      'ratelimit-limit': '3',
      'ratelimit-remaining': '1',
      'ratelimit-reset': '8',
      'ratelimit-policy': '3;w=10',
    })
    expect(rateLimitHeaders(l.check('k', { limit: 0, windowSeconds: 1 }))).toEqual({})
  })
})

describe('rate limit configuration', () => {
  test('args: RATE_LIMIT default and RATE_LIMITS per key', () => {
    expect(getServerEnv({}).RATE_LIMIT).toEqual({ limit: 1200, windowSeconds: 60 })
    const env = getServerEnv({ RATE_LIMIT: '10/1', RATE_LIMITS: 'alice=5/60, b=ob=0' })
    expect(env.RATE_LIMIT).toEqual({ limit: 10, windowSeconds: 1 })
    expect(env.RATE_LIMITS).toEqual({ alice: { limit: 5, windowSeconds: 60 }, 'b=ob': { limit: 0, windowSeconds: 1 } })
  })
  test.each(['10', '10/0', 'x/1', '-1/1'])('error: RATE_LIMIT=%s', (v) => {
    expect(() => getServerEnv({ RATE_LIMIT: v })).toThrow(/RATE_LIMIT/)
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
