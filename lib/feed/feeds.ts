import 'server-only'
import { createHash } from 'node:crypto'
import { after } from 'next/server'
import type { ChainConfig } from '../chains/registry'
import { processSingleton } from '../runtime/process-singleton'
import type { FeedWindow } from './feed-window'
import { readFeeWindow } from '../upstream/read-fee-window'
import { readPendingBlock } from '../upstream/read-pending'
import { ChainFeed } from './chain-feed'
import { RemotePieces, type FeedPieceHooks } from './piece-bridge'
import { pieceThread } from './piece-thread'
import { PieceTracker } from './piece-tracker'
import { PUBLISHED_PIECE_MS } from '../core/chain-rules/fast-chains'
import type { FeedSettings } from './feed-settings'
import { dataCacheLayer, layeredStore, redisLayer, type WindowLayer } from './window-store'

/** The feeds' settings and whether a group shares windows through Redis (REDIS_URL). */
export type FeedsSettings = FeedSettings & { sharedStore: boolean }

/** One feed per chain and source per process. */
const feeds = processSingleton('chain-feeds', () => new Map<string, ChainFeed>())

/**
 * Which nodes a window comes from: a digest of the chain's configured RPC URLs (never the URLs themselves,
 * which hold provider keys).
 */
export function sourceScope(chain: Pick<ChainConfig, 'rpcUrls'>): string {
  const urls = chain.rpcUrls.join('\n')
  let scope = scopes.get(urls)
  if (scope === undefined) {
    scope = createHash('sha256').update(urls).digest('hex').slice(0, 16)
    if (scopes.size >= 1_000) scopes.clear()
    scopes.set(urls, scope)
  }
  return scope
}
/** Each configuration's digest, made once (every answer and stream open asks for its chain's feed). */
const scopes = processSingleton('source-scopes', () => new Map<string, string>())

/** Runs a read behind the answer. */
function behind(task: Promise<unknown>): void {
  try {
    after(task)
  } catch {
    void task
  }
}

/** The chain's feed (created on first use; a chain whose nodes changed gets a new one). */
export function chainFeed(chain: ChainConfig, settings: FeedsSettings): ChainFeed {
  const scope = sourceScope(chain)
  const id = `${chain.id}:${scope}`
  const existing = feeds.get(id)
  if (existing) {
    existing.configure(settings)
    return existing
  }
  // a chain served from other nodes before: that feed is done
  for (const [key, old] of feeds) {
    if (old.chain.id === chain.id) {
      old.stop()
      feeds.delete(key)
    }
  }
  const layers: WindowLayer[] = [dataCacheLayer(chain.id, scope)]
  if (settings.sharedStore) {
    layers.push(
      redisLayer({
        chainId: chain.id,
        scope,
        now: () => Date.now(),
        maxStaleMs: settings.maxStaleMs,
        publishTtlMs: settings.maxStaleMs + 60_000,
        lockMs: settings.rpcTimeoutMs + 1_000,
        // well inside the request's own RPC_TIMEOUT_MS, so a waiter whose leader died (or whose lock
        // was never released) still has time for its own read
        waitMs: (periodMs) => Math.min(settings.rpcTimeoutMs / 3, 2 * periodMs),
      }),
    )
  }
  const feed: ChainFeed = new ChainFeed(chain, {
    settings,
    store: layeredStore(layers),
    read: readFeeWindow,
    followPieces: (hooks) => followPieces(chain, settings.rpcTimeoutMs, hooks),
    behind,
    countSources: settings.sharedStore,
  })
  feeds.set(id, feed)
  return feed
}

/**
 * Who reads a chain's pending pieces: in a Next server, a thread of their own (lib/feed/piece-thread.ts), so that
 * requests queued on the server's event loop cannot delay a read past its piece; elsewhere (tests, scripts) this thread.
 */
function followPieces(chain: ChainConfig, timeoutMs: number, hooks: FeedPieceHooks) {
  const publishedPieceMs = PUBLISHED_PIECE_MS[chain.id]
  if (process.env.NEXT_RUNTIME === 'nodejs')
    return new RemotePieces({ rpcUrls: chain.rpcUrls, timeoutMs, publishedPieceMs }, hooks, pieceThread())
  return new PieceTracker({ ...hooks, publishedPieceMs, read: () => readPendingBlock(chain.rpcUrls, timeoutMs) })
}

/** Per chain, the window this process holds (no read). */
export function heldWindows(): { chain: ChainConfig; window: FeedWindow; periodMs: number }[] {
  return [...feeds.values()].flatMap((f) => {
    const window = f.held()
    return window ? [{ chain: f.chain, window, periodMs: f.periodMs(window) }] : []
  })
}
