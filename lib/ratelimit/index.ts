import { parseBasicAuth } from '../auth/basic-auth'
import { getServerEnv } from '../env'
import { RateLimitedError } from '../http/errors'
import { processSingleton } from '../process-singleton'
import { FixedWindowLimiter, rateLimitHeaders } from './fixed-window'


const limiter = processSingleton('rate-limiter', () => new FixedWindowLimiter())

/**
 * Counts one request of the key against its quota (RATE_LIMITS, else RATE_LIMIT). The key is read
 * from the Authorization header, which the middleware has already verified (a request with a wrong
 * secret never reaches a handler); re-parsing it is cheaper than having the middleware rewrite the
 * request's headers.
 * @returns the RateLimit-* headers for the answer
 * @throws RateLimitedError (429) when the quota is spent
 */
export function consumeRateLimit(request: Request): Record<string, string> {
  const key = parseBasicAuth(request.headers.get('authorization'))?.key
  if (!key) return {}
  const env = getServerEnv()
  const decision = limiter.check(key, Object.hasOwn(env.RATE_LIMITS, key) ? env.RATE_LIMITS[key] : env.RATE_LIMIT)
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new RateLimitedError(decision.policy.limit, decision.policy.windowSeconds, decision.resetSeconds, headers)
  }
  return headers
}
