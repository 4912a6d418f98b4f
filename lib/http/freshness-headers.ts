import 'server-only'
import type { ReportMeta } from '../fees'

/** Headers that say which block the data is for, how old it is, and how long it may be cached. */
export function freshnessHeaders(meta: ReportMeta, now = Date.now()): Record<string, string> {
  const headers: Record<string, string> = {
    'x-chain-id': String(meta.chainId),
    'x-block-number': String(meta.blockNumber),
    'x-block-timestamp': String(meta.blockTimestamp),
    'x-block-interval-ms': String(meta.blockIntervalMs),
    age: String(Math.max(0, Math.floor((now - meta.fetchedAt) / 1000))),
    'x-data-stale': String(meta.stale),
    'cache-control': meta.stale ? 'no-store' : `private, max-age=${Math.max(0, Math.floor((meta.freshUntil - now) / 1000))}`,
  }
  if (meta.stale) headers.warning = '110 - "Response is Stale"'
  return headers
}
