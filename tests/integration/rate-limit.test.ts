import { describe, expect, test } from 'vitest'
import { api, basic, ctx } from './helpers'

describe('rate limit per API key', () => {
  test('behavior: the quota is counted per key, with RateLimit headers, and then 429 with Retry-After', async () => {
    const { credentials, chains } = ctx()
    const path = `/networks/${chains.live}/baseFeePercentile`
    const auth = basic(credentials.limited)
    const remaining: string[] = []
    for (let i = 0; i < 5; i++) {
      const res = await api(path, { auth })
      expect(res.status).toBe(200)
      expect(res.headers.get('ratelimit-limit')).toBe('5')
      expect(res.headers.get('ratelimit-policy')).toBe('5;w=3600')
      remaining.push(res.headers.get('ratelimit-remaining')!)
    }
    expect(remaining).toEqual(['4', '3', '2', '1', '0'])
    const refused = await api(path, { auth })
    expect(refused.status).toBe(429)
    expect(refused.body).toMatchObject({ statusCode: 429, error: 'Too Many Requests' })
    expect(refused.body.message).toMatch(/5 requests per 3600 s/)
    const retry = Number(refused.headers.get('retry-after'))
    expect(retry).toBeGreaterThanOrEqual(1)
    // sliding window: the five count in full until this window ends, then until a fifth of the next
    // one has passed (5 × 4/5 + 1 = 5): at most 3600 + 720 s
    expect(retry).toBeLessThanOrEqual(3600 + 720)
    expect(refused.headers.get('ratelimit-remaining')).toBe('0')
    // another key is unaffected
    const other = await fetch(`${ctx().api}${path}`, { headers: { authorization: basic(credentials.colon) } })
    expect(other.status).toBe(200)
    expect(other.headers.get('ratelimit-limit')).toBe('1200')
  })
})
