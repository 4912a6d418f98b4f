import { parseBasicAuth } from '../auth/basic-auth'
import { getServerEnv } from '../env'
import { RateLimitedError } from '../http/errors'
import { processSingleton } from '../process-singleton'
import { count } from '../metrics/registry'
import { UNAVAILABLE } from '../redis/client'
import { countSharedRequest } from '../redis/store'
import { decide, FixedWindowLimiter, rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from './fixed-window'

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
  const own = Object.hasOwn(env.RATE_LIMITS, key) ? env.RATE_LIMITS[key] : undefined
  const policy = own ?? env.RATE_LIMIT
  const decision = env.REDIS_URL === undefined ? limiter.check(key, policy) : await checkShared(key, policy)
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new RateLimitedError(decision.policy.limit, decision.policy.windowSeconds, decision.resetSeconds, headers)
  }
  return headers
}

/**
 * With REDIS_URL: one counter per key for every instance; its window opens with the key's first
 * request and ends when Redis expires the counter (Redis's clock, not each instance's). While Redis is unreachable,
 * this instance's own counters take over (each instance then allows the full quota).
 */
async function checkShared(key: string, policy: RateLimitPolicy): Promise<RateLimitDecision> {
  if (policy.limit === 0) return decide(policy, 0, 0)
  const shared = await countSharedRequest(key, policy.windowSeconds * 1000)
  count('gas_api_rate_limit_checks_total', { store: shared === UNAVAILABLE ? 'local' : 'shared' })
  return shared === UNAVAILABLE ? limiter.check(key, policy) : decide(policy, shared.count, shared.msToReset)
}
