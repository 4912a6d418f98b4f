import 'server-only'
import { getServerEnv } from '../env'
import { RateLimitedError } from '../core/contract/errors'
import { processSingleton } from '../runtime/process-singleton'
import { count } from '../metrics/registry'
import { reportSharedStoreFailure, sharedStoreClient, sharedStoreDegraded } from '../store/client'
import { SlidingWindowCounters } from './counters'
import { rateLimitHeaders, unlimited } from './sliding-window'

const limiters = processSingleton('rate-limiter', () => ({
  memory: new SlidingWindowCounters({ kind: 'memory' }),
  redis: undefined as SlidingWindowCounters | undefined,
}))

/** The Redis-backed counters (created with the client, on the first check with REDIS_URL). */
function sharedCounters(): SlidingWindowCounters {
  const env = getServerEnv()
  return (limiters.redis ??= new SlidingWindowCounters({
    kind: 'redis',
    client: sharedStoreClient(),
    timeoutMs: env.REDIS_TIMEOUT_MS,
    // the instance goes degraded for a second, logs it once and reports it on /metrics
    // (not while the client is still connecting or reconnecting: the client reports that itself)
    onFallback: () => {
      if (sharedStoreClient().isReady)
        reportSharedStoreFailure(Object.assign(new Error('rate limit counter failed'), { name: 'RateLimitStoreError' }))
    },
  }))
}

/**
 * Counts one request of the key against its quota, in a sliding window (lib/ratelimit/sliding-window.ts):
 * an API key's (`tier` 'key') is RATE_LIMITS by its name, else RATE_LIMIT; the keyless tier's (`tier` 'public',
 * `key` one per client address) is PUBLIC_RATE_LIMIT. `cost`: the request's units (a multi-chain call's: one
 * per chain it names), all taken or none.
 * @returns the RateLimit-* headers for the answer
 * @throws RateLimitedError (429) when the quota is spent (or has less left than `cost`)
 */
export async function consumeRateLimit(key: string, tier: 'key' | 'public' = 'key', cost = 1): Promise<Record<string, string>> {
  const env = getServerEnv()
  const own = tier === 'key' && Object.hasOwn(env.RATE_LIMITS, key) ? env.RATE_LIMITS[key] : undefined
  const policy = tier === 'public' ? env.PUBLIC_RATE_LIMIT : (own ?? env.RATE_LIMIT)
  let decision = unlimited(policy)
  if (policy.limit > 0) {
    if (env.REDIS_URL === undefined) decision = (await limiters.memory.check(key, policy, cost)).decision
    else if (sharedStoreDegraded()) {
      // degraded: this instance's memory answers at once, without a Redis command that would wait
      // REDIS_TIMEOUT_MS (twice: the anchor, then the counters) before falling back anyway
      decision = (await limiters.memory.check(key, policy, cost)).decision
      count('gas_api_rate_limit_checks_total', { store: 'local' })
    } else {
      const checked = await sharedCounters().check(key, policy, cost)
      count('gas_api_rate_limit_checks_total', { store: checked.local ? 'local' : 'shared' })
      decision = checked.decision
    }
  }
  const headers = rateLimitHeaders(decision)
  if (!decision.allowed) {
    throw new RateLimitedError(decision.policy.limit, decision.policy.windowSeconds, decision.resetSeconds, headers, {
      asked: cost,
      left: decision.remaining,
    })
  }
  return headers
}
