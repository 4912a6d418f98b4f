import { parseBasicAuth } from '../auth/basic-auth'
import { getServerEnv } from '../env'
import { RateLimitedError } from '../http/errors'
import { processSingleton } from '../process-singleton'
import { count } from '../metrics/registry'
import { UNAVAILABLE } from '../redis/client'
import { countSharedRequest } from '../redis/store'
import { decide, FixedWindowLimiter, fixedWindow, rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from './fixed-window'

const limiter = processSingleton('rate-limiter', () => new FixedWindowLimiter())

/**
 * Counts one request of the key against its quota (RATE_LIMITS, else RATE_LIMIT). The key is read
 * from the Authorization header, which the middleware has already verified (a request with a wrong
 * secret never reaches a handler); re-parsing it is cheaper than having the middleware rewrite the
 * request's headers.
 * @returns the RateLimit-* headers for the answer
 * @throws RateLimitedError (429) when the quota is spent
 */
export async function consumeRateLimit(request: Request): Promise<Record<string, string>> {
  const key = parseBasicAuth(request.headers.get('authorization'))?.key
  if (!key) return {}
  const env = getServerEnv()
  const policy = Object.hasOwn(env.RATE_LIMITS, key) ? env.RATE_LIMITS[key] : env.RATE_LIMIT
  const decision = env.REDIS_URL === undefined ? limiter.check(key, policy) : await checkShared(key, policy)
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new RateLimitedError(decision.policy.limit, decision.policy.windowSeconds, decision.resetSeconds, headers)
  }
  return headers
}

/**
 * With REDIS_URL: one counter per key and window for every instance. While Redis is unreachable,
 * this instance's own counters take over (each instance then allows the full quota).
 */
async function checkShared(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
  if (policy.limit === 0) return decide(policy, 0)
  const now = Date.now()
  const { start, windowMs } = fixedWindow(policy, now)
  const n = await countSharedRequest(key, start, windowMs)
  count('gas_api_rate_limit_checks_total', { store: n === UNAVAILABLE ? 'local' : 'shared' })
  return n === UNAVAILABLE ? limiter.check(key, policy, now) : decide(policy, n, now)
}
