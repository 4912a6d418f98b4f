// @ts-check
// Next's cacheHandler with REDIS_URL (next.config.mjs). Next also bundles the configured handler into
// the edge middleware, where the Redis client and @fortedigital/nextjs-cache-handler cannot load
// (they import node:net, node:fs, node:assert/strict at module evaluation and the edge sandbox
// refuses them, so every request would fail). This file is therefore edge-safe: it loads the real
// handler (next-cache-handler-node.mjs) on first use, and only on the Node.js runtime. The
// middleware never uses Next's cache, so on the edge the handler is an empty cache.

/** @typedef {typeof import('./next-cache-handler-node.mjs')} NodeHandlerModule */
/** @typedef {InstanceType<NodeHandlerModule['default']>} NodeHandler */

/** @type {Promise<NodeHandlerModule> | undefined} */
let nodeHandler

/**
 * The handler's Redis lookups run up to three commands in a row, each with its own timeout: one
 * deadline for the whole call (REDIS_TIMEOUT_MS, the same bound as the app's own Redis commands)
 * turns a hung Redis into a cache miss instead of a slow request.
 * @template T @param {Promise<T>} promise @param {T} fallback @returns {Promise<T>}
 */
function withinDeadline(promise, fallback) {
  const ms = Number(process.env.REDIS_TIMEOUT_MS) || 250
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
    const h = await this.handler()
    return h ? withinDeadline(h.get(key, ctx), null) : null
  }

  /** @param {Parameters<NodeHandler['set']>[0]} key @param {Parameters<NodeHandler['set']>[1]} data @param {Parameters<NodeHandler['set']>[2]} ctx */
  async set(key, data, ctx) {
    const h = await this.handler()
    if (h) await withinDeadline(h.set(key, data, ctx), undefined)
  }

  /**
   * @param {Parameters<NodeHandler['revalidateTag']>[0]} tags
   * @param {{ expire?: number }} [_durations] Next's, unused: the Node handler revalidates by tag only
   */
  async revalidateTag(tags, _durations) {
    const h = await this.handler()
    if (h) await h.revalidateTag(tags)
  }

  resetRequestCache() {}
}
