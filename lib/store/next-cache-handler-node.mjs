// @ts-check The Node.js side of Next's cacheHandler (loaded by next-cache-handler.mjs): unstable_cache
// entries, and any ISR/route cache, live in Redis, shared by every instance.
import { CacheHandler } from '@fortedigital/nextjs-cache-handler'
import createLruHandler from '@fortedigital/nextjs-cache-handler/local-lru'
import createRedisHandler from '@fortedigital/nextjs-cache-handler/redis-strings'
import { createClient } from '@redis/client'
import { PHASE_PRODUCTION_BUILD } from 'next/constants.js'
import { DEFAULT_REDIS_TIMEOUT_MS } from '../runtime/redis-timeout.mjs'

const CONFIG = Symbol.for('gas-api.next-cache-handler')

/** @typedef {Awaited<ReturnType<Parameters<typeof CacheHandler.onCreation>[0]>>} CacheHandlerConfig */

CacheHandler.onCreation(() => {
  const store = /** @type {Record<symbol, CacheHandlerConfig | undefined>} */ (globalThis)
  const existing = store[CONFIG]
  if (existing) return existing
  const lru = createLruHandler()
  // `next build` with REDIS_URL set (standalone images) prerenders into memory, not into Redis
  if (process.env.NEXT_PHASE === PHASE_PRODUCTION_BUILD || !process.env.REDIS_URL) {
    return (store[CONFIG] = { handlers: [lru] })
  }
  const timeoutMs = Number(process.env.REDIS_TIMEOUT_MS) || DEFAULT_REDIS_TIMEOUT_MS
  const client = createClient({
    url: process.env.REDIS_URL,
    disableOfflineQueue: true,
    socket: { connectTimeout: 1_000, reconnectStrategy: (retries) => Math.min(50 * 2 ** retries, 1_000) },
  })
  // without a listener an 'error' event would crash the process; the client reconnects by itself
  client.on('error', () => {})
  client.connect().catch(() => {})
  const redis = createRedisHandler({ client, keyPrefix: 'gas-api:next:', timeoutMs })
  return (store[CONFIG] = { handlers: [redis, lru] })
})

export default CacheHandler
