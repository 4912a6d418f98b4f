import {
  RateLimiterMemory,
  RateLimiterRedis,
  RLWrapperTimeouts,
  type RateLimiterAbstract,
  type RateLimiterRes,
} from 'rate-limiter-flexible'
import { slidingDecision, type RateLimitDecision, type RateLimitPolicy } from './sliding-window'

/** Key prefix in Redis; PREFIX of lib/store/store.ts, so a new shape never meets an old one. */
const PREFIX = 'gas-api:v3:rate'
/** Never refused by the library: the sliding rule (slidingDecision) decides, the library counts. */
const UNCAPPED = Number.MAX_SAFE_INTEGER
/** The anchor's life, in windows: instances number windows from its creation (its TTL), so Redis's clock places a request. */
const ANCHOR_WINDOWS = (windowSeconds: number) => Math.max(3, Math.floor(1_000_000 / windowSeconds))

/** Options passed through the library to the insurance limiter, which marks a check it answered. */
type CheckOptions = { local?: boolean }

/** The in-memory limiter that answers when the Redis one fails or times out; it marks the check. */
class InsuranceMemory extends RateLimiterMemory {
  constructor(
    opts: ConstructorParameters<typeof RateLimiterMemory>[0],
    private readonly onUse: () => void,
  ) {
    super(opts)
  }
  override consume(key: string | number, points?: number, options?: CheckOptions): Promise<RateLimiterRes> {
    if (options) options.local = true
    this.onUse()
    return super.consume(key, points, options as Record<string, unknown>)
  }
  override get(key: string | number, options?: CheckOptions): Promise<RateLimiterRes | null> {
    if (options) options.local = true
    this.onUse()
    return super.get(key, options as Record<string, unknown>)
  }
  override reward(key: string | number, points?: number, options?: CheckOptions): Promise<RateLimiterRes> {
    if (options) options.local = true
    return super.reward(key, points, options as Record<string, unknown>)
  }
}

/** Where the counters live: this process's memory, or Redis with this process's memory as insurance. */
export type CounterStore = { kind: 'memory' } | { kind: 'redis'; client: unknown; timeoutMs: number; onFallback: () => void }

type Pair = { anchor: RateLimiterAbstract; counter: RateLimiterAbstract; anchorSeconds: number }

/** The two limiters of a window length: the anchor (one key per window length) and the counters (per key and window). */
function limiters(store: CounterStore, windowSeconds: number): Pair {
  const anchorSeconds = windowSeconds * ANCHOR_WINDOWS(windowSeconds)
  const opts = (keyPrefix: string, duration: number) => ({ keyPrefix, points: UNCAPPED, duration })
  const make = (keyPrefix: string, duration: number): RateLimiterAbstract => {
    if (store.kind === 'memory') return new RateLimiterMemory(opts(keyPrefix, duration))
    const insurance = new InsuranceMemory(opts(keyPrefix, duration), store.onFallback)
    const redis = new RateLimiterRedis({
      ...opts(keyPrefix, duration),
      storeClient: store.client,
      useRedisPackage: true,
      // not connected (the client queues nothing while disconnected): the insurance answers at once
      rejectIfRedisNotReady: true,
      insuranceLimiter: insurance,
    })
    // slower than REDIS_TIMEOUT_MS: the insurance answers
    return new RLWrapperTimeouts({
      limiter: redis,
      timeoutMs: store.timeoutMs,
      insuranceLimiter: insurance,
    }) as unknown as RateLimiterAbstract
  }
  return {
    anchor: make(`${PREFIX}:anchor`, anchorSeconds),
    counter: make(`${PREFIX}:${windowSeconds}`, 2 * windowSeconds),
    anchorSeconds,
  }
}

/** Sliding-window rate limits on rate-limiter-flexible's counters, the same in memory and in Redis. */
export class SlidingWindowCounters {
  private readonly pairs = new Map<number, Pair>()
  constructor(private readonly store: CounterStore) {}

  private pair(windowSeconds: number): Pair {
    let p = this.pairs.get(windowSeconds)
    if (!p) this.pairs.set(windowSeconds, (p = limiters(this.store, windowSeconds)))
    return p
  }

  /**
   * Counts one request of `key` under `policy`, as `cost` units (default 1); a refused request is not counted.
   * @returns the decision, and whether this process's memory answered instead of Redis
   */
  async check(key: string, policy: RateLimitPolicy, cost = 1): Promise<{ decision: RateLimitDecision; local: boolean }> {
    const options: CheckOptions = {}
    const { anchor, counter, anchorSeconds } = this.pair(policy.windowSeconds)
    const windowMs = policy.windowSeconds * 1000
    const anchorRes = await settled(anchor.consume(String(policy.windowSeconds), 1, options))
    // ms since the anchor was created, by the store's clock
    const position = Math.max(0, anchorSeconds * 1000 - anchorRes.msBeforeNext)
    const windows = ANCHOR_WINDOWS(policy.windowSeconds)
    const index = Math.min(windows - 1, Math.floor(position / windowMs))
    const previousIndex = (index + windows - 1) % windows
    const [current, previous] = await Promise.all([
      settled(counter.consume(`${index}:${key}`, cost, options)),
      counter.get(`${previousIndex}:${key}`, options),
    ])
    const decision = slidingDecision(policy, {
      previous: previous?.consumedPoints ?? 0,
      current: current.consumedPoints,
      elapsedMs: position - index * windowMs,
      cost,
    })
    if (!decision.allowed) await counter.reward(`${index}:${key}`, cost, options).catch(() => {})
    return { decision, local: options.local === true }
  }
}

/** A consume's result whether the library resolved or rejected it with a RateLimiterRes; errors propagate. */
async function settled(p: Promise<RateLimiterRes>): Promise<RateLimiterRes> {
  try {
    return await p
  } catch (res) {
    if (res instanceof Error || typeof (res as RateLimiterRes)?.consumedPoints !== 'number') throw res
    return res as RateLimiterRes
  }
}
