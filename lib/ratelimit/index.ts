import 'server-only'
import { getServerEnv } from '../env'
import { RateLimitedError } from '../core/errors'
import { processSingleton } from '../core/process-singleton'
import { count } from '../metrics/registry'
import { UNAVAILABLE } from '../store/client'
import { countSharedRequest } from '../store/store'
import { decide, FixedWindowLimiter, rateLimitHeaders, type RateLimitDecision, type RateLimitPolicy } from './fixed-window'

const limiter = processSingleton('rate-limiter', () => new FixedWindowLimiter())

/**
 * Counts one request of the key against its quota (RATE_LIMITS, else RATE_LIMIT). The key is the one
 * the middleware verified (lib/http/respond.ts requireIdentity): never read from client input.
 * @returns the RateLimit-* headers for the answer
 * @throws RateLimitedError (429) when the quota is spent
 */
export async function consumeRateLimit(key: string): Promise<Record<string, string>> {
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
