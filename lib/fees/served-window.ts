import 'server-only'
/** A served chain's feed as the service API uses it: the feeds' settings, the window a request is answered from, per-window memos. */
import { chainFeed, type FeedsSettings } from '../feed/feeds'
import type { CachedFeeWindow } from '../feed/chain-feed'
import type { ChainConfig } from '../chains/registry'
import { feePolicyOf, getChain } from '../chains/registry'
import { getServerEnv, type ServerEnv } from '../env'
import { FeeMarketUnsupportedError, UnsupportedChainError } from '../core/contract/errors'
import type { ChainFeePolicy } from '../core/chain-rules/chain-policy'
import type { FeeWindow } from '../core/types'
import { processSingleton } from '../runtime/process-singleton'

/** The feeds' settings of a configuration, built once per configuration object. */
const feedSettings = processSingleton('feed-settings', () => new WeakMap<ServerEnv, FeedsSettings>())

function settingsOf(env: ServerEnv): FeedsSettings {
  let settings = feedSettings.get(env)
  if (!settings) {
    settings = {
      rpcTimeoutMs: env.RPC_TIMEOUT_MS,
      maxStaleMs: env.MAX_STALE_SECONDS * 1000,
      maxHeadAgeMs: env.MAX_HEAD_AGE_SECONDS === undefined ? undefined : env.MAX_HEAD_AGE_SECONDS * 1000,
      warmMs: env.FEED_WARM_SECONDS * 1000,
      waitMs: Math.min(env.FEED_WAIT_MS, env.RPC_TIMEOUT_MS),
      sharedStore: env.REDIS_URL !== undefined,
    }
    feedSettings.set(env, settings)
  }
  return settings
}

/** A served chain's feed: UnsupportedChainError when the chain is not served. */
function feedOf(chainId: number) {
  const chain = getChain(chainId)
  if (!chain) throw new UnsupportedChainError(chainId)
  return chainFeed(chain, settingsOf(getServerEnv()))
}

/** A configured chain's window, through its feed, as a request gets it, but not as demand (it does not warm the chain). */
export const probeWindow = (chain: ChainConfig): Promise<CachedFeeWindow> =>
  chainFeed(chain, settingsOf(getServerEnv())).get({ warm: false })

/**
 * Calls `listener` on each newer window or failed read; the chain stays warm while subscribed. Returns the unsubscribe.
 * @throws UnsupportedChainError
 */
export function watchChain(chainId: number, listener: () => void): () => void {
  return feedOf(chainId).subscribe(listener)
}

/** What a response needs besides its body: which block, how old, whether stale. */
export type ReportMeta = {
  chainId: number
  blockNumber: number
  /** unix seconds */
  blockTimestamp: number
  /** The chain's measured block interval, ms. */
  blockIntervalMs: number
  /** ms since the epoch */
  fetchedAt: number
  /** ms since the epoch */
  freshUntil: number
  stale: boolean
  /** On a flashblocks chain: the block under construction and the piece the answer follows. */
  pending?: { blockNumber: number; piece: number }
}

const metaOf = (window: FeeWindow, stale: boolean, freshUntil: number): ReportMeta => ({
  chainId: window.chainId,
  blockNumber: window.headNumber,
  blockTimestamp: window.headTimestamp,
  blockIntervalMs: window.blockIntervalMs,
  fetchedAt: window.fetchedAt,
  freshUntil,
  stale,
  ...(window.pending ? { pending: { blockNumber: window.pending.blockNumber, piece: window.pending.piece } } : {}),
})

/** The window a request is answered from, with its meta; `feeMarket` refuses a chain without EIP-1559. */
export async function servedWindow(chainId: number, opts: { feeMarket: boolean; countLookup?: boolean }) {
  const feed = feedOf(chainId)
  const { window, stale, freshUntil } = await feed.get({ countLookup: opts.countLookup })
  if (opts.feeMarket && window.legacy) throw new FeeMarketUnsupportedError(chainId)
  // a flashblocks chain's pending pieces: the states followed, and the sealed window under the overlaid one
  const pieces = feed.pieces?.flashblocks ? feed.pieces : undefined
  return { window, policy: feePolicyOf(feed.chain), meta: metaOf(window, stale, freshUntil), pieces }
}

/** A value derived from a window, computed once per window and dropped with it. */
export function perWindow<T>(name: string, compute: (window: FeeWindow, policy: ChainFeePolicy) => T) {
  const memo = processSingleton(name, () => new WeakMap<FeeWindow, T>())
  return (window: FeeWindow, policy: ChainFeePolicy): T => {
    let value = memo.get(window)
    if (value === undefined) memo.set(window, (value = compute(window, policy)))
    return value
  }
}
