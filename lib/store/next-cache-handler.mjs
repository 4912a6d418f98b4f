// @ts-check Next's cacheHandler with REDIS_URL (next.config.mjs).

/** @typedef {typeof import('./next-cache-handler-node.mjs')} NodeHandlerModule */
/** @typedef {InstanceType<NodeHandlerModule['default']>} NodeHandler */

/** @type {Promise<NodeHandlerModule> | undefined} */
let nodeHandler

/** unstable_cache entries with this tag stay in this instance's memory and never go to Redis. */
export const INSTANCE_LOCAL_TAG = 'gas-api:instance-local'
/** Entries kept for that tag: a few per configured chain (one per revalidate period and node set). */
const LOCAL_ENTRIES = 256

/** @typedef {{ tags?: string[] }} TaggedContext */
/** @param {unknown} ctx @returns {boolean} */
const isInstanceLocal = (ctx) => {
  const tags = /** @type {TaggedContext | undefined} */ (ctx)?.tags
  return Array.isArray(tags) && tags.includes(INSTANCE_LOCAL_TAG)
}

/**
 * One deadline (REDIS_TIMEOUT_MS) for a whole handler call of several Redis commands: a hung Redis is a cache miss.
 * @template T @param {Promise<T>} promise @param {T} fallback @returns {Promise<T>}
 */
async function withinDeadline(promise, fallback) {
  // imported lazily: this file may import nothing at module evaluation (tests/unit/store/next-cache-handler.test.ts)
  const ms = Number(process.env.REDIS_TIMEOUT_MS) || (await import('../runtime/redis-timeout.mjs')).DEFAULT_REDIS_TIMEOUT_MS
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let timer
  const timeout = new Promise((resolve) => {
    timer = setTimeout(() => resolve(fallback), ms)
  })
  return Promise.race([promise.catch(() => fallback), timeout]).finally(() => clearTimeout(timer))
}

export default class GasApiCacheHandler {
  /** @param {ConstructorParameters<NodeHandlerModule['default']>[0]} ctx Next's CacheHandlerContext */
  constructor(ctx) {
    this.ctx = ctx
    /** @type {Promise<NodeHandler> | undefined} */
    this.inner = undefined
  }

  /**
   * Per process (Next may construct the handler more than once): the instance-local entries, oldest first.
   * @returns {Map<string, { lastModified: number, value: unknown, tags: string[] }>}
   */
  static local() {
    const store = /** @type {Record<symbol, Map<string, { lastModified: number, value: unknown, tags: string[] }> | undefined>} */ (
      globalThis
    )
    const key = Symbol.for('gas-api.next-cache-handler.local')
    return (store[key] ??= new Map())
  }

  /** @returns {Promise<NodeHandler | null>} the Redis-backed handler, or null on the edge runtime */
  handler() {
    if (process.env.NEXT_RUNTIME === 'edge') return Promise.resolve(null)
    nodeHandler ??= import('./next-cache-handler-node.mjs').catch((err) => {
      nodeHandler = undefined // try again on the next call
      throw err
    })
    this.inner ??= nodeHandler
      .then((m) => new m.default(this.ctx))
      .catch((err) => {
        this.inner = undefined
        throw err
      })
    return this.inner
  }

  /** @param {Parameters<NodeHandler['get']>[0]} key @param {Parameters<NodeHandler['get']>[1]} ctx */
  async get(key, ctx) {
    if (isInstanceLocal(ctx)) {
      const entry = GasApiCacheHandler.local().get(key)
      return entry
        ? /** @type {Awaited<ReturnType<NodeHandler['get']>>} */ ({ lastModified: entry.lastModified, value: entry.value })
        : null
    }
    const h = await this.handler()
    return h ? withinDeadline(h.get(key, ctx), null) : null
  }

  /** @param {Parameters<NodeHandler['set']>[0]} key @param {Parameters<NodeHandler['set']>[1]} data @param {Parameters<NodeHandler['set']>[2]} ctx */
  async set(key, data, ctx) {
    if (isInstanceLocal(ctx)) {
      const local = GasApiCacheHandler.local()
      local.delete(key)
      if (data) local.set(key, { lastModified: Date.now(), value: data, tags: /** @type {TaggedContext} */ (ctx).tags ?? [] })
      for (const oldest of local.keys()) {
        if (local.size <= LOCAL_ENTRIES) break
        local.delete(oldest)
      }
      return
    }
    const h = await this.handler()
    if (h) await withinDeadline(h.set(key, data, ctx), undefined)
  }

  /**
   * @param {Parameters<NodeHandler['revalidateTag']>[0]} tags
   * @param {{ expire?: number }} [_durations] Next's, unused: the Node handler revalidates by tag only
   */
  async revalidateTag(tags, _durations) {
    const list = /** @type {string[]} */ (Array.isArray(tags) ? tags : [tags])
    const local = GasApiCacheHandler.local()
    for (const [key, entry] of local) if (entry.tags.some((t) => list.includes(t))) local.delete(key)
    const h = await this.handler()
    if (h) await h.revalidateTag(tags)
  }

  resetRequestCache() {}
}
