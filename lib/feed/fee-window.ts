import 'server-only'
import { createHash } from 'node:crypto'
import { unstable_cache } from 'next/cache'
import { after } from 'next/server'
import { feePolicyOf, type ChainConfig } from '../chains/registry'
import { getServerEnv } from '../env'
import { REWARD_PERCENTILES } from '../core/estimator'
import { MAX_PERIOD_MS, MIN_PERIOD_MS } from '../core/freshness'
import type { FeeWindow } from '../core/types'
import { FeeMarketUnsupportedError, UpstreamUnavailableError } from '../core/errors'
import { count, observeSeconds } from '../metrics/registry'
import { processSingleton } from '../core/process-singleton'
import { sharedStoreConfigured } from '../store/client'
import { getSharedWindow, lockChainRead, putSharedWindow, unlockChainRead } from '../store/store'
import { withDeadline } from '../core/deadline'
import { readFeeWindow } from '../upstream/read-fee-window'
import { backoffMs, decide } from './rules'
import { nextRead } from './read-timing'
import { INSTANCE_LOCAL_TAG } from '../store/next-cache-handler.mjs'
import { readThroughSharedStore, type SharedWindowStore } from './shared-read'

/** Blocks in the window: the spec's base fee history covers the previous 500 blocks. */
export const HISTORY_BLOCKS = 500
/** Bump when FeeWindow's shape changes, so old Data Cache entries are not read. */
const CACHE_VERSION = 'fee-window-v4'
/** Cache freshness bounds: about one block interval, but not below 1 s (unstable_cache's unit) or above 60 s. */
const MIN_TTL_MS = MIN_PERIOD_MS
const MAX_TTL_MS = MAX_PERIOD_MS

/** A window as served: whether it is stale (the upstream failed and this is the last good one). */
export type CachedFeeWindow = { window: FeeWindow; stale: boolean; freshUntil: number }

type ChainState = {
  chain: ChainConfig
  window?: FeeWindow
  inflight?: Promise<FeeWindow>
  /** A read started behind an answer is under way. */
  refreshing?: boolean
  failure?: { error: Error; until: number }
}

/** The Redis store for a chain's windows read from these nodes. */
const redisWindowStore = (scope: string): SharedWindowStore => ({
  get: (chainId) => getSharedWindow(chainId, scope),
  put: (chainId, window, ttl) => putSharedWindow(chainId, scope, window, ttl),
  lock: lockChainRead,
  unlock: unlockChainRead,
})

const states = processSingleton('fee-window-state', () => new Map<number, ChainState>())
const watchers = processSingleton('fee-window-watchers', () => new Set<(chainId: number) => void>())

/**
 * Calls `listener(chainId)` whenever this process takes a newer window for a chain or a read of it
 * fails (the stream pushes on it). Returns the function that stops it.
 */
export function watchWindows(listener: (chainId: number) => void): () => void {
  watchers.add(listener)
  return () => watchers.delete(listener)
}

function notify(chainId: number): void {
  for (const w of watchers) {
    try {
      w(chainId)
    } catch {
      // a watcher's failure is its own
    }
  }
}

function stateOf(chain: ChainConfig): ChainState {
  let st = states.get(chain.id)
  if (!st) states.set(chain.id, (st = { chain }))
  st.chain = chain
  return st
}

/** How long a window stays fresh: the chain's measured block interval, within [1 s, 60 s]. */
export function ttlMs(chain: ChainConfig, window?: FeeWindow): number {
  const interval = window?.blockIntervalMs ?? chain.nominalBlockTimeMs ?? 2_000
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, interval))
}

/**
 * Until when a window is fresh: its next read (timed on the chain's blocks by the reader), never
 * later than one period after it was read (a window from an instance whose clock runs ahead).
 */
const freshUntilOf = (chain: ChainConfig, w: FeeWindow): number => {
  const byPeriod = w.fetchedAt + ttlMs(chain, w)
  return w.nextReadAt === undefined ? byPeriod : Math.min(w.nextReadAt, byPeriod)
}

const isFresh = (st: ChainState, w: FeeWindow | undefined, now: number): boolean => w !== undefined && now < freshUntilOf(st.chain, w)

/**
 * The single-flight upstream read: concurrent callers share one read; a window fresher than one
 * block interval is returned without reading at all. This is the loader unstable_cache calls.
 */
function loadWindow(chainId: number): Promise<FeeWindow> {
  const st = states.get(chainId)
  if (!st) return Promise.reject(new UpstreamUnavailableError(`Chain ${chainId} has no state.`))
  if (st.window && isFresh(st, st.window, Date.now())) return Promise.resolve(st.window)
  if (!st.inflight) {
    const env = getServerEnv()
    const policy = feePolicyOf(st.chain)
    const read = (published?: FeeWindow) => {
      const started = performance.now()
      const startedAt = Date.now()
      // the read timing continues from the newest window known, whichever instance read it (its
      // phase says when that read started, and it saw this head): one another instance published
      // while this one was not asked, else the one held
      const base = published ?? st.window
      const previous = base && { head: base.headNumber, timestampMs: base.headTimestamp * 1000, phase: base.readPhase }
      const timed = () => observeSeconds('gas_api_upstream_read_duration_seconds', { chain: chainId }, (performance.now() - started) / 1000)
      return readFeeWindow({
        chainId,
        rpcUrls: st.chain.rpcUrls,
        blockCount: HISTORY_BLOCKS,
        rewardPercentiles: REWARD_PERCENTILES,
        timeoutMs: env.RPC_TIMEOUT_MS,
        // a window older than MAX_STALE_SECONDS no longer vouches for the head (a rewound or
        // regenerated chain must not be refused forever)
        previous: st.window && Date.now() - st.window.fetchedAt <= env.MAX_STALE_SECONDS * 1000 ? st.window : undefined,
        fallbackBlockTimeMs: st.chain.nominalBlockTimeMs ?? 2_000,
        ...(policy.enforceBaseFeeBounds ? { baseFeeBounds: { risePpm: policy.maxBaseFeeRisePpm, fallPpm: policy.maxBaseFeeFallPpm } } : {}),
      }).then(
        (w): FeeWindow => {
          timed()
          count('gas_api_upstream_reads_total', { chain: chainId, result: 'ok' })
          // the next read, timed on the chain's blocks (one read per new block, soon after it lands)
          const plan = nextRead(
            previous?.phase,
            {
              startedAt,
              endedAt: w.fetchedAt,
              headNumber: w.headNumber,
              headTimestampMs: w.headTimestamp * 1000,
              intervalMs: w.blockIntervalMs,
              previousHead: previous?.head,
              previousHeadTimestampMs: previous?.timestampMs,
            },
            { minMs: MIN_TTL_MS, maxMs: MAX_TTL_MS },
          )
          return { ...w, nextReadAt: plan.at, ...(plan.phase ? { readPhase: plan.phase } : {}) }
        },
        (err: unknown) => {
          timed()
          count('gas_api_upstream_reads_total', { chain: chainId, result: err instanceof Error ? err.name : 'Error' })
          throw err
        },
      )
    }
    const shared = sharedStoreConfigured()
      ? readThroughSharedStore({
          store: redisWindowStore(sourceScope(st.chain)),
          chainId,
          newerThan: st.window?.fetchedAt ?? 0,
          minHeadNumber: st.window?.headNumber ?? 0,
          isFresh: (w) => isFresh(st, w, Date.now()),
          read,
          publishTtlMs: env.MAX_STALE_SECONDS * 1000 + MAX_TTL_MS,
          lockMs: env.RPC_TIMEOUT_MS + 1_000,
          // well inside the request's own RPC_TIMEOUT_MS, so a waiter whose leader died (or whose
          // lock was never released) still has time for its own read
          waitMs: Math.min(env.RPC_TIMEOUT_MS / 3, 2 * ttlMs(st.chain, st.window)),
        }).then(({ window, source }) => {
          count('gas_api_shared_reads_total', { chain: chainId, source })
          return window
        })
      : read()
    st.inflight = shared
      .then((w) => {
        if (!st.window || w.fetchedAt >= st.window.fetchedAt) st.window = w
        st.failure = undefined
        notify(chainId)
        return w
      })
      .finally(() => {
        st.inflight = undefined
      })
  }
  return st.inflight
}

const readers = processSingleton('fee-window-readers', () => new Map<string, (chainId: number) => Promise<FeeWindow>>())

/**
 * Which nodes a window comes from: a digest of the chain's configured RPC URLs (never the URLs
 * themselves, which hold provider keys). Cached windows are keyed on it, so services configured with
 * other nodes for the same chain id (another deployment on the same Redis, another `next start` on the
 * same .next cache, a reconfigured one) never serve each other's windows.
 */
export function sourceScope(chain: Pick<ChainConfig, 'rpcUrls'>): string {
  return createHash('sha256').update(chain.rpcUrls.join('\n')).digest('hex').slice(0, 16)
}

/**
 * unstable_cache around the loader, one wrapper per revalidate period (seconds) and source. Tagged
 * instance-local: with REDIS_URL the handler keeps these entries in memory (the window reaches the
 * other instances once, through the single-flight's published copy), so each window is written to
 * Redis once.
 */
function cachedReader(revalidateSeconds: number, scope: string) {
  const id = `${revalidateSeconds}:${scope}`
  let reader = readers.get(id)
  if (!reader) {
    reader = unstable_cache(loadWindow, [CACHE_VERSION, scope], {
      revalidate: revalidateSeconds,
      tags: [CACHE_VERSION, INSTANCE_LOCAL_TAG],
    })
    readers.set(id, reader)
  }
  return reader
}

/** Below this, a head is never called lagging: missed slots and uneven block times are normal. */
const MIN_HEAD_AGE_LIMIT_MS = 60_000

/**
 * Whether the node's latest block is older than MAX_HEAD_AGE_SECONDS (default: max(60 s, 10 block
 * intervals)) by the wall clock: a node that answers but stopped following the chain.
 */
export function headLagging(window: FeeWindow, now = Date.now()): boolean {
  const configured = getServerEnv().MAX_HEAD_AGE_SECONDS
  if (configured === 0) return false
  const limitMs = configured !== undefined ? configured * 1000 : Math.max(MIN_HEAD_AGE_LIMIT_MS, 10 * window.blockIntervalMs)
  return now - window.headTimestamp * 1000 > limitMs
}

function served(st: ChainState, window: FeeWindow, stale: boolean): CachedFeeWindow {
  // a lagging head is served, but never as current data
  return { window, stale: stale || headLagging(window), freshUntil: freshUntilOf(st.chain, window) }
}

/**
 * Runs a read behind the answer. Inside a request, Next's after() keeps the function alive until it
 * settles (on Vercel a detached promise need not run to completion); outside one (tests, scripts),
 * the read simply runs.
 */
function behind(task: Promise<unknown>): void {
  try {
    after(task)
  } catch {
    void task
  }
}

/**
 * A chain's fee window, by the feed's rules (lib/feed/rules.ts): fresh for one block interval; then
 * served at once while the next read runs behind it, marked stale when that read is late or failing,
 * up to MAX_STALE_SECONDS old; with no window that young, a request waits for a read (never longer
 * than RPC_TIMEOUT_MS) and gets UpstreamUnavailableError / UpstreamBadResponseError if it fails.
 * `countLookup: false` leaves the lookup out of gas_api_cache_total (the stream hub's ticks are not requests).
 */
export async function getFeeWindow(chain: ChainConfig, opts: { countLookup?: boolean } = {}): Promise<CachedFeeWindow> {
  const tally = opts.countLookup === false ? () => {} : count
  const st = stateOf(chain)
  const started = Date.now()
  const rules = { ttlMs: ttlMs(chain, st.window), maxStaleMs: getServerEnv().MAX_STALE_SECONDS * 1000 }
  const decision = decide(
    {
      fetchedAt: st.window?.fetchedAt,
      freshUntil: st.window && freshUntilOf(chain, st.window),
      failure: st.failure,
      reading: st.refreshing === true,
    },
    started,
    rules,
  )
  switch (decision.kind) {
    case 'hit':
      tally('gas_api_cache_total', { chain: chain.id, outcome: 'hit' })
      return served(st, st.window!, false)
    case 'serve': {
      tally('gas_api_cache_total', { chain: chain.id, outcome: 'grace' })
      const window = st.window!
      if (decision.read) {
        st.refreshing = true
        behind(
          refresh(st, chain, started)
            .catch(() => {})
            .finally(() => {
              st.refreshing = false
            }),
        )
      }
      return served(st, window, decision.stale)
    }
    case 'failing':
      tally('gas_api_cache_total', { chain: chain.id, outcome: 'failing' })
      throw st.failure!.error
    case 'wait':
      tally('gas_api_cache_total', { chain: chain.id, outcome: 'miss' })
      return refresh(st, chain, started)
  }
}

/** Per chain, the window this process holds (no read). */
export function heldWindows(): { chain: ChainConfig; window: FeeWindow }[] {
  return [...states.values()].flatMap((st) => (st.window ? [{ chain: st.chain, window: st.window }] : []))
}

/**
 * Per chain: the head block (number, unix seconds), the read time (ms since the epoch) and the cache
 * period (ms: how long it is fresh) of the window this process holds.
 */
export function cachedWindows(): { chainId: number; headNumber: number; headTimestamp: number; fetchedAt: number; ttlMs: number }[] {
  return [...states.values()].flatMap((st) =>
    st.window
      ? [
          {
            chainId: st.chain.id,
            headNumber: st.window.headNumber,
            headTimestamp: st.window.headTimestamp,
            fetchedAt: st.window.fetchedAt,
            ttlMs: ttlMs(st.chain, st.window),
          },
        ]
      : [],
  )
}

/** Reads a new window (through unstable_cache and the single-flight) within RPC_TIMEOUT_MS. */
async function refresh(st: ChainState, chain: ChainConfig, started: number): Promise<CachedFeeWindow> {
  const timeoutMs = getServerEnv().RPC_TIMEOUT_MS
  try {
    const reader = cachedReader(Math.ceil(ttlMs(chain, st.window) / 1000), sourceScope(chain))
    let window = await withDeadline(reader(chain.id), timeoutMs)
    // unstable_cache answers stale entries at once and revalidates in the background; join that read.
    if (!isFresh(st, window, Date.now())) {
      window = await withDeadline(loadWindow(chain.id), timeoutMs - (Date.now() - started))
    }
    if (!st.window || window.fetchedAt > st.window.fetchedAt) {
      st.window = window
      // a window read after the failure (here, or by another instance through the cache) ends it
      st.failure = undefined
      notify(chain.id)
    }
    return served(st, window, false)
  } catch (err) {
    const error = err instanceof Error ? err : new UpstreamUnavailableError('The upstream read failed.')
    st.failure = { error, until: Date.now() + backoffMs(error instanceof FeeMarketUnsupportedError, st.window !== undefined) }
    notify(chain.id)
    // a chain that once served a window is not declared non-EIP-1559 by one odd answer: the last good
    // window, marked stale, while it is young enough
    if (st.window && Date.now() - st.window.fetchedAt <= getServerEnv().MAX_STALE_SECONDS * 1000) return served(st, st.window, true)
    throw error
  }
}
