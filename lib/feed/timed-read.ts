import 'server-only'
import type { ChainConfig } from '../chains/registry'
import { feePolicyOf } from '../chains/registry'
import { chainReadsOf } from '../core/chain-rules/fast-chains'
import { MAX_PERIOD_MS, MIN_PERIOD_MS } from '../core/contract/freshness'
import { REWARD_PERCENTILES } from '../core/fee-math/estimator'
import { count, observeSeconds } from '../metrics/registry'
import type { ReadFeeWindowParameters } from '../upstream/read-from-url'
import { MAX_READS_PER_PERIOD } from './ceiling'
import type { FeedWindow } from './feed-window'
import type { nextRead } from './read-timing/next-read'

/** Blocks in the window: the spec's base fee history covers the previous 500 blocks. */
const HISTORY_BLOCKS = 500

/**
 * One upstream read of a chain, timed on its blocks: the new window carries its next read's time, the
 * read timing's phase and the group's read starts, continuing from `published` (a newer window another
 * instance published) or else the one `held`. Counts and times the read for /metrics.
 */
export async function timedRead(p: {
  chain: ChainConfig
  settings: { rpcTimeoutMs: number; maxStaleMs: number }
  read: (params: ReadFeeWindowParameters) => Promise<FeedWindow>
  plan: typeof nextRead
  held: FeedWindow | undefined
  published: FeedWindow | undefined
  startedAt: number
  now: () => number
}): Promise<FeedWindow> {
  const startedAt = p.startedAt
  const held = p.held
  // the read timing continues from the newest window known, whichever instance read it: one
  // another instance published while this one was not asked, else the one held
  const base = p.published ?? held
  const previous = base && { head: base.headNumber, timestampMs: base.headTimestamp * 1000, phase: base.readPhase }
  const policy = feePolicyOf(p.chain)
  const labels = { chain: p.chain.id }
  try {
    const w = await p.read({
      chainId: p.chain.id,
      rpcUrls: p.chain.rpcUrls,
      blockCount: HISTORY_BLOCKS,
      rewardPercentiles: REWARD_PERCENTILES,
      timeoutMs: p.settings.rpcTimeoutMs,
      // past half MAX_STALE_SECONDS it no longer vouches for the head (a regenerated chain or a node far behind is
      // not refused for ever), so the read that takes them comes while the last window is still served
      ...(held && startedAt - held.fetchedAt <= p.settings.maxStaleMs
        ? { previous: held, ...(startedAt - held.fetchedAt > p.settings.maxStaleMs / 2 ? { previousVouches: false } : {}) }
        : {}),
      fallbackBlockTimeMs: p.chain.nominalBlockTimeMs ?? 2_000,
      ...(policy.enforceBaseFeeBounds ? { baseFeeBounds: { risePpm: policy.maxBaseFeeRisePpm, fallPpm: policy.maxBaseFeeFallPpm } } : {}),
      ...(p.chain.l1FeeRule ? { l1FeeRule: p.chain.l1FeeRule } : {}),
      ...(chainReadsOf(policy).length ? { chainReads: chainReadsOf(policy) } : {}),
    })
    observeSeconds('gas_api_upstream_read_duration_seconds', labels, (p.now() - startedAt) / 1000)
    count('gas_api_upstream_reads_total', { ...labels, result: 'ok' })
    // the next read, timed on the chain's blocks (one read per new block, soon after it lands)
    const plan = p.plan(
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
      { minMs: MIN_PERIOD_MS, maxMs: MAX_PERIOD_MS },
    )
    return {
      ...w,
      nextReadAt: plan.at,
      ...(plan.phase ? { readPhase: plan.phase } : {}),
      readStarts: [...(base?.readStarts ?? []), startedAt].slice(-MAX_READS_PER_PERIOD),
    }
  } catch (err) {
    observeSeconds('gas_api_upstream_read_duration_seconds', labels, (p.now() - startedAt) / 1000)
    count('gas_api_upstream_reads_total', { ...labels, result: err instanceof Error ? err.name : 'Error' })
    throw err
  }
}
