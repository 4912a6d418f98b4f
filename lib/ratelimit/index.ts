import { getServerEnv } from '../env'
import { RateLimitedError } from '../http/errors'
import { FixedWindowLimiter, rateLimitHeaders } from './fixed-window'

/** The request header the middleware sets to the authenticated API key (clients' copies are overwritten). */
export const API_KEY_HEADER = 'x-gas-api-key'

const KEY = Symbol.for('gas-api.rate-limiter')
const limiter: FixedWindowLimiter =
  ((globalThis as Record<symbol, unknown>)[KEY] as FixedWindowLimiter) ??
  ((globalThis as Record<symbol, unknown>)[KEY] = new FixedWindowLimiter())

/**
 * Counts one request of the key against its quota (RATE_LIMITS, else RATE_LIMIT).
 * @returns the RateLimit-* headers for the answer
 * @throws RateLimitedError (429) when the quota is spent
 */
export function consumeRateLimit(request: Request): Record<string, string> {
  const key = request.headers.get(API_KEY_HEADER)
  if (!key) return {}
  const env = getServerEnv()
  const decision = limiter.check(key, env.RATE_LIMITS[key] ?? env.RATE_LIMIT)
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new RateLimitedError(decision.policy.limit, decision.policy.windowSeconds, decision.resetSeconds, headers)
  }
  return headers
}
