import { processSingleton } from '../runtime/process-singleton'

/**
 * Per RPC URL, per process: until when it is skipped after a failure, and the chain id it was found
 * to serve (asked again each CHAIN_ID_RECHECK_MS). readFeeWindow orders and marks URLs with it; readFromUrl reads and sets the chain id.
 */
/** How long an URL that failed is skipped, ms. */
const UNHEALTHY_MS = 30_000

/** How long a chain id found stands before the URL is asked again, in a read's own batch, ms: a node (or the proxy in
 * front of it) that starts serving another chain is refused within this, where asking once let it pass for good. */
export const CHAIN_ID_RECHECK_MS = 60_000

type UrlHealth = { unhealthyUntil: number; verifiedChainId?: number; verifiedAt?: number }
const health = processSingleton('rpc-health', () => new Map<string, UrlHealth>())

/** The URLs, healthy ones first (order kept otherwise). */
export function healthyFirst(urls: readonly string[], now: number): string[] {
  return [...urls].sort((a, b) => Number((health.get(a)?.unhealthyUntil ?? 0) > now) - Number((health.get(b)?.unhealthyUntil ?? 0) > now))
}

/** The URL answered: it is no longer skipped. */
export function markHealthy(url: string): void {
  const h = health.get(url)
  if (h) h.unhealthyUntil = 0
}

/** The URL failed: skipped for UNHEALTHY_MS while another is left. */
export function markUnhealthy(url: string, now: number): void {
  const h = health.get(url) ?? { unhealthyUntil: 0 }
  h.unhealthyUntil = now + UNHEALTHY_MS
  health.set(url, h)
}

/** The chain id the URL was found to serve, or undefined when not asked yet or asked over CHAIN_ID_RECHECK_MS ago. */
export function verifiedChainId(url: string, now = Date.now()): number | undefined {
  const h = health.get(url)
  return h?.verifiedAt !== undefined && now - h.verifiedAt < CHAIN_ID_RECHECK_MS ? h.verifiedChainId : undefined
}

/** Records the chain id the URL serves (and that it answered). */
export function setVerifiedChainId(url: string, chainId: number, now = Date.now()): void {
  health.set(url, { unhealthyUntil: 0, verifiedChainId: chainId, verifiedAt: now })
}
