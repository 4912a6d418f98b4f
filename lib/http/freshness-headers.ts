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

/** One chain's part of a multi-chain answer: its window's meta, or the status of the error body it has instead. */
export type ChainPart = { chainId: number; meta: ReportMeta } | { chainId: number; status: number }

/** A chain id as an RFC 8941 item: an Integer has at most 15 digits, so a longer id (up to 2^53 − 1) is a String. */
const idItem = (id: number) => (id <= 999_999_999_999_999 ? String(id) : `"${id}"`)

/**
 * The freshness headers of a multi-chain answer as a whole, the shortest of its chains': `cache-control` the
 * least max-age (no-store when a chain is stale or answered an error), `age` the oldest, `x-data-stale` whether
 * any chain is; and each chain's own in `x-chain-freshness`, in the body's order, as an RFC 8941 list:
 * `1;block=21000000;age=3;interval=12000;stale=?0, 42161;status=503`.
 */
export function multiChainFreshnessHeaders(parts: ChainPart[], now = Date.now()): Record<string, string> {
  let maxAge = Number.POSITIVE_INFINITY
  let age = 0
  let stale = false
  let failed = false
  const each = parts.map((part) => {
    if (!('meta' in part)) {
      failed = true
      return `${idItem(part.chainId)};status=${part.status}`
    }
    const { meta } = part
    const own = Math.max(0, Math.floor((now - meta.fetchedAt) / 1000))
    age = Math.max(age, own)
    maxAge = Math.min(maxAge, Math.max(0, Math.floor((meta.freshUntil - now) / 1000)))
    stale ||= meta.stale
    return `${idItem(meta.chainId)};block=${meta.blockNumber};age=${own};interval=${meta.blockIntervalMs};stale=?${meta.stale ? 1 : 0}`
  })
  const headers: Record<string, string> = {
    age: String(age),
    'x-data-stale': String(stale),
    'cache-control': stale || failed || parts.length === 0 ? 'no-store' : `private, max-age=${maxAge}`,
    'x-chain-freshness': each.join(', '),
  }
  if (stale) headers.warning = '110 - "Response is Stale"'
  return headers
}
