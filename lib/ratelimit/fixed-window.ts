/** A request quota: `limit` requests per `windowSeconds`. limit 0 means unlimited. */
export type RateLimitPolicy = { limit: number; windowSeconds: number }

export type RateLimitDecision = {
  allowed: boolean
  policy: RateLimitPolicy
  remaining: number
  /** Seconds until the window resets. */
  resetSeconds: number
}

/**
 * Fixed-window counters per API key, in this process's memory (one instance, or several while the
 * shared store is unreachable; with REDIS_URL the counters live in Redis, lib/store/store). A key's
 * window opens with its first request and lasts `windowSeconds` (as rate-limiter-flexible's fixed
 * windows do): no wall-clock boundary resets every key at once. Memory is one entry per key seen.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  check(key: string, policy: RateLimitPolicy, now = Date.now()): RateLimitDecision {
    if (policy.limit === 0) return unlimited(policy)
    const windowMs = policy.windowSeconds * 1000
    let w = this.windows.get(key)
    if (!w || now >= w.start + windowMs || now < w.start) {
      w = { start: now, count: 0 }
      this.windows.set(key, w)
    }
    if (w.count < policy.limit) w.count++
    else return decide(policy, policy.limit + 1, w.start + windowMs - now)
    return decide(policy, w.count, w.start + windowMs - now)
  }
}

const unlimited = (policy: RateLimitPolicy): RateLimitDecision => ({
  allowed: true,
  policy,
  remaining: Number.POSITIVE_INFINITY,
  resetSeconds: 0,
})

/**
 * The decision for the `count`-th request (this one included) of a window that ends in
 * `msToReset`: the same rule whether the count is this instance's or the shared store's.
 */
export function decide(policy: RateLimitPolicy, count: number, msToReset: number): RateLimitDecision {
  if (policy.limit === 0) return unlimited(policy)
  const resetSeconds = Math.max(1, Math.ceil(msToReset / 1000))
  if (count > policy.limit) return { allowed: false, policy, remaining: 0, resetSeconds }
  return { allowed: true, policy, remaining: policy.limit - count, resetSeconds }
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
