import type { ChainConfig } from '@/lib/chains/registry'
import type { FeedsSettings } from '@/lib/feed/feeds'

/** The feeds' settings as lib/fees builds them from the defaults, with overrides. */
export const feedSettings = (over: Partial<FeedsSettings> = {}): FeedsSettings => ({
  rpcTimeoutMs: 5_000,
  maxStaleMs: 60_000,
  maxHeadAgeMs: 0,
  warmMs: 180_000,
  waitMs: 1_000,
  sharedStore: false,
  ...over,
})

/** A chain served from one node. */
export const chainAt = (url: string, id = 1): ChainConfig => ({ id, name: 'test', rpcUrls: [url] })
