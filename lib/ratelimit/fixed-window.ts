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
 * Fixed-window counters per API key, in this process's memory (one instance; the multi-instance
 * issue moves them to a shared store). Windows are aligned to the epoch, so every key's window of
 * the same length resets together; memory is one entry per configured key.
 */
export class FixedWindowLimiter {
  private readonly windows = new Map<string, { start: number; count: number }>()

  check(key: string, policy: RateLimitPolicy, now = Date.now()): RateLimitDecision {
    if (policy.limit === 0) return { allowed: true, policy, remaining: Number.POSITIVE_INFINITY, resetSeconds: 0 }
    const windowMs = policy.windowSeconds * 1000
    const start = Math.floor(now / windowMs) * windowMs
    let w = this.windows.get(key)
    if (!w || w.start !== start) {
      w = { start, count: 0 }
      this.windows.set(key, w)
    }
    const resetSeconds = Math.max(1, Math.ceil((start + windowMs - now) / 1000))
    if (w.count >= policy.limit) return { allowed: false, policy, remaining: 0, resetSeconds }
    w.count++
    return { allowed: true, policy, remaining: policy.limit - w.count, resetSeconds }
  }
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
