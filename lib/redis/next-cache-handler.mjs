// Next's cacheHandler with REDIS_URL (next.config.mjs). Next also bundles the configured handler into
// the edge middleware, where the Redis client and @fortedigital/nextjs-cache-handler cannot load
// (they import node:net, node:fs, node:assert/strict at module evaluation and the edge sandbox
// refuses them, so every request would fail). This file is therefore edge-safe: it loads the real
// handler (next-cache-handler-node.mjs) on first use, and only on the Node.js runtime. The
// middleware never uses Next's cache, so on the edge the handler is an empty cache.

/** @type {Promise<{ default: new (ctx: unknown) => any }> | undefined} */
let nodeHandler

export default class GasApiCacheHandler {
  /** @param {unknown} ctx Next's CacheHandlerContext */
  constructor(ctx) {
    this.ctx = ctx
    /** @type {Promise<any> | undefined} */
    this.inner = undefined
  }

  /** @returns {Promise<any | null>} the Redis-backed handler, or null on the edge runtime */
  handler() {
    if (process.env.NEXT_RUNTIME === 'edge') return Promise.resolve(null)
    nodeHandler ??= import('./next-cache-handler-node.mjs')
    this.inner ??= nodeHandler.then((m) => new m.default(this.ctx))
    return this.inner
  }

  /** @param {string} key @param {any} ctx */
  async get(key, ctx) {
    const h = await this.handler()
    return h ? h.get(key, ctx) : null
  }

  /** @param {string} key @param {any} data @param {any} ctx */
  async set(key, data, ctx) {
    const h = await this.handler()
    if (h) await h.set(key, data, ctx)
  }

  /** @param {string | string[]} tags @param {any} [durations] */
  async revalidateTag(tags, durations) {
    const h = await this.handler()
    if (h) await h.revalidateTag(tags, durations)
  }

  resetRequestCache() {}
}
