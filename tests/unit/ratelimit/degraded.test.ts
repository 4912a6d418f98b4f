// While the shared store is degraded, the rate limit is counted in memory at once: no Redis command
// (which would wait REDIS_TIMEOUT_MS before the library's own fallback) is sent.
import { expect, test, vi } from 'vitest'

const store = { degraded: true, clientAsked: 0 }
vi.mock('@/lib/env', async (importOriginal) => ({
  ...(await importOriginal<typeof import('@/lib/env')>()),
  getServerEnv: () => ({
    RATE_LIMIT: { limit: 2, windowSeconds: 60 },
    RATE_LIMITS: {},
    REDIS_URL: 'redis://127.0.0.1:1',
    REDIS_TIMEOUT_MS: 250,
  }),
}))
vi.mock('@/lib/store/client', () => ({
  sharedStoreDegraded: () => store.degraded,
  sharedStoreClient: () => {
    store.clientAsked++
    throw new Error('no Redis command while degraded')
  },
  reportSharedStoreFailure: () => {},
}))

test('behavior: degraded: counted in this instance memory without asking Redis; the quota still holds', async () => {
  const { consumeRateLimit } = await import('@/lib/ratelimit')
  const { RateLimitedError } = await import('@/lib/core/contract/errors')
  await consumeRateLimit('k')
  await consumeRateLimit('k')
  await expect(consumeRateLimit('k')).rejects.toBeInstanceOf(RateLimitedError)
  expect(store.clientAsked).toBe(0)
})
