import 'server-only'
import { unstable_cache } from 'next/cache'
import { ceilingAllowsAt } from './ceiling'
import type { FeedWindow } from './feed-window'
import { processSingleton } from '../runtime/process-singleton'
import { getSharedWindow, lockChainRead, putSharedWindow, unlockChainRead } from '../store/store'
import { INSTANCE_LOCAL_TAG } from '../store/next-cache-handler.mjs'
import { readThroughSharedStore, type SharedReadResult, type SharedReadSource } from './shared-read'

/**
 * The places a chain's window is held, top to bottom: process memory, the Next Data Cache, Redis
 * (REDIS_URL); a load asks each in turn, the upstream read runs below the last, and every layer passed
 * holds the result (docs/development.md, "The window store").
 */
export type WindowStore = {
  /** The window this process holds (memory), or undefined. */
  held(): FeedWindow | undefined
  /** Holds `window` when it is newer than the one held; returns whether it did. */
  hold(window: FeedWindow): boolean
  /**
   * A window through the layers below memory: one a layer holds that `accept` takes, else
   * `read(published)` (the upstream read; `published`: a newer window another instance published,
   * no longer fresh, that the read timing continues from). The result is held.
   */
  load(accept: (w: FeedWindow) => boolean, read: (published?: FeedWindow) => Promise<FeedWindow>, timing: LoadTiming): Promise<LoadResult>
}

/** The chain's periods as the feed knows them when it loads, ms: the layers need them, and ask nobody. */
export type LoadTiming = {
  /** The chain's period (its block interval within [1 s, 60 s]). */
  periodMs: number
  /** The read ceiling's period (the period, or the chain's slower wall-clock pace). */
  ceilingPeriodMs: number
}

/** What a layer is given with each load: the window held in memory, and the chain's periods. */
export type LoadContext = LoadTiming & { held: FeedWindow | undefined }

/** Where a load's window came from: the upstream read here, another instance's read, or, under the group's read ceiling, the newest window known. */
export type LoadSource = SharedReadSource | 'cache'

/** A load's window, where it came from and, under the group's ceiling, the group's read starts: SharedReadResult, from any layer. */
export type LoadResult = Omit<SharedReadResult, 'source'> & { source: LoadSource }

/** One layer below memory. */
export type WindowLayer = (
  accept: (w: FeedWindow) => boolean,
  next: (published?: FeedWindow) => Promise<LoadResult>,
  ctx: LoadContext,
) => Promise<LoadResult>

/** A store of the given layers below process memory (none: memory alone). */
export function layeredStore(layers: readonly WindowLayer[]): WindowStore {
  let held: FeedWindow | undefined
  const hold = (w: FeedWindow) => {
    if (held && w.fetchedAt <= held.fetchedAt) return false
    held = w
    return true
  }
  return {
    held: () => held,
    hold,
    async load(accept, read, timing) {
      const ctx: LoadContext = { ...timing, held }
      const bottom = async (published?: FeedWindow): Promise<LoadResult> => ({ window: await read(published), source: 'local' })
      const chain = layers.reduceRight<(published?: FeedWindow) => Promise<LoadResult>>(
        (next, layer) => () => layer(accept, next, ctx),
        bottom,
      )
      const result = await chain()
      hold(result.window)
      return result
    },
  }
}

/** Bump when FeedWindow's shape changes, so old Data Cache entries are not read. */
const CACHE_VERSION = 'fee-window-v5'

type CachedLoader = () => Promise<FeedWindow>
const dataCacheReaders = processSingleton('data-cache-readers', () => new Map<string, { read: CachedLoader; current?: CachedLoader }>())

/**
 * The Next Data Cache layer for one chain and source (`scope`: lib/feed/feeds.ts sourceScope), its entries
 * revalidated after the chain's period (whole seconds, rounded up).
 */
export function dataCacheLayer(chainId: number, scope: string): WindowLayer {
  return async (accept, next, ctx) => {
    const revalidate = Math.ceil(ctx.periodMs / 1000)
    const id = `${chainId}:${revalidate}:${scope}`
    let entry = dataCacheReaders.get(id)
    if (!entry) {
      const slot: { read: CachedLoader; current?: CachedLoader } = {
        // the loader runs the current load's next layers (a revalidation behind a stale entry included)
        read: unstable_cache(
          () => (slot.current ? slot.current() : Promise.reject(new Error('no load under way'))),
          [CACHE_VERSION, scope, String(chainId)],
          { revalidate, tags: [CACHE_VERSION, INSTANCE_LOCAL_TAG] },
        ),
      }
      dataCacheReaders.set(id, (entry = slot))
    }
    let run: Promise<LoadResult> | undefined
    const start = () => (run ??= next())
    entry.current = () => start().then((r) => r.window)
    try {
      const cached = await entry.read()
      if (run === undefined && accept(cached)) return { window: cached, source: 'cache' }
    } catch {
      // outside a Next request (a feed's timer, a script) unstable_cache throws: pass through
    }
    return start()
  }
}

/**
 * The Redis layer: readThroughSharedStore (lib/feed/shared-read.ts) over the chain's published
 * window and read lock, with the group's read ceiling: under the lock, a read is made only when the
 * published window's read starts (every instance's reads) leave room for one more in this period;
 * otherwise the newest window known answers.
 */
export function redisLayer(params: {
  chainId: number
  scope: string
  now: () => number
  /** MAX_STALE_SECONDS, ms: a held window older than this is not handed back in place of a read. */
  maxStaleMs: number
  /** How long a published window is kept, ms. */
  publishTtlMs: number
  /** The lock's longest hold and the longest wait for another instance's read, ms. */
  lockMs: number
  /** How long to wait for another instance's read, ms, for the chain's period. */
  waitMs: (periodMs: number) => number
}): WindowLayer {
  return async (accept, next, ctx) => {
    const held = ctx.held
    const result = await readThroughSharedStore({
      store: {
        get: (chainId) => getSharedWindow(chainId, params.scope),
        put: (chainId, window, ttl) => putSharedWindow(chainId, params.scope, window, ttl),
        lock: lockChainRead,
        unlock: unlockChainRead,
      },
      chainId: params.chainId,
      newerThan: held?.fetchedAt ?? 0,
      minHeadNumber: held?.headNumber ?? 0,
      isFresh: accept,
      read: async (published) => (await next(published)).window,
      // another machine's clock never puts a read start ahead of now
      mayRead: (published) => {
        const now = params.now()
        return (
          ceilingAllowsAt(
            (published?.readStarts ?? []).map((t) => Math.min(t, now)),
            ctx.ceilingPeriodMs,
          ) <= now
        )
      },
      // a window too old to serve is no answer: without one, the read is made
      ...(held && params.now() - held.fetchedAt <= params.maxStaleMs ? { held } : {}),
      publishTtlMs: params.publishTtlMs,
      lockMs: params.lockMs,
      waitMs: params.waitMs(ctx.periodMs),
    })
    return result
  }
}
