/** A request quota: `limit` requests per `windowSeconds`. limit 0 means unlimited. */
export type RateLimitPolicy = { limit: number; windowSeconds: number }

export type RateLimitDecision = {
  allowed: boolean
  policy: RateLimitPolicy
  remaining: number
  /** Seconds until the count falls (allowed: the current window ends; refused: one more request fits). */
  resetSeconds: number
}

/**
 * What the counters say when a request arrives: `previous` units accepted in the window before, `current` in
 * this one (this request's included), `elapsedMs` into this window; `cost`, the request's units (default 1: a
 * multi-chain call counts one per chain it names).
 */
export type WindowCounts = { previous: number; current: number; elapsedMs: number; cost?: number }

export const unlimited = (policy: RateLimitPolicy): RateLimitDecision => ({
  allowed: true,
  policy,
  remaining: Number.POSITIVE_INFINITY,
  resetSeconds: 0,
})

/**
 * The sliding-window counter rule (as Cloudflare's and nginx's limiters apply it): the requests of the
 * trailing window are estimated as the current window's count plus the previous window's count weighted by
 * the share of it the trailing window still covers.
 */
export function slidingDecision(policy: RateLimitPolicy, { previous, current, elapsedMs, cost = 1 }: WindowCounts): RateLimitDecision {
  if (policy.limit === 0) return unlimited(policy)
  const windowMs = policy.windowSeconds * 1000
  const left = Math.max(0, windowMs - elapsedMs)
  const estimate = (previous * left) / windowMs + current
  if (estimate <= policy.limit) {
    return { allowed: true, policy, remaining: Math.floor(policy.limit - estimate), resetSeconds: Math.max(1, Math.ceil(left / 1000)) }
  }
  // refused (and not counted): when would the same request fit? (one costing more than the limit never does:
  // it is told the rest of this window and the next, the longest any request waits)
  const accepted = current - cost
  let waitMs: number
  if (cost > policy.limit) waitMs = left + windowMs
  else if (accepted + cost <= policy.limit && previous > 0) {
    // later in this window, once enough of the previous window has slid out
    waitMs = Math.max(0, windowMs - ((policy.limit - accepted - cost) * windowMs) / previous - elapsedMs)
  } else {
    // in the next window, once enough of this one has slid out
    waitMs = left + (accepted > 0 ? Math.max(0, windowMs - ((policy.limit - cost) * windowMs) / accepted) : 0)
  }
  // what is left for a request of one unit (a refused multi-chain call's list may be longer than it)
  const remaining = Math.max(0, Math.floor(policy.limit - (estimate - cost)))
  return { allowed: false, policy, remaining, resetSeconds: Math.max(1, Math.ceil(waitMs / 1000)) }
}

/** IETF RateLimit header fields (draft-ietf-httpapi-ratelimit-headers) for a decision. */
export function rateLimitHeaders(d: RateLimitDecision): Record<string, string> {
  if (d.policy.limit === 0) return {}
  return {
    'ratelimit-limit': String(d.policy.limit),
    'ratelimit-remaining': String(d.remaining),
    'ratelimit-reset': String(d.resetSeconds),
    'ratelimit-policy': `${d.policy.limit};w=${d.policy.windowSeconds}`,
  }
}
