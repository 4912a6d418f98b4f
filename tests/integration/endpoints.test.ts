import { describe, expect, test } from 'vitest'
import { formatGwei } from 'viem'
import { BaseFeeHistorySchema, BaseFeePercentileSchema, BusyThresholdSchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { api, at, ctx, eventually, gwei, nearestRank, nodeBlockTimestamps, nodeFeeHistory } from './helpers'

const PCTS = [0, 1, 5, 10, 50, 100]
const live = () => ctx().chains.live
const blockOf = (headers: Headers) => Number(headers.get('x-block-number'))
const toWei = (g: string) => {
  const [i = '', f = ''] = g.split('.')
  return BigInt(i) * 10n ** 9n + BigInt(f.padEnd(9, '0'))
}

describe('GET /networks/{chainId}/baseFeeHistory', () => {
  test("default: the 500 most recent base fees, oldest first, equal to the node's eth_feeHistory", async () => {
    const res = await api(`/networks/${live()}/baseFeeHistory`)
    expect(res.status).toBe(200)
    const body = BaseFeeHistorySchema.parse(res.body)
    expect(body).toHaveLength(500)
    const node = await nodeFeeHistory(blockOf(res.headers), [])
    expect(body).toEqual(node.baseFees.map(gwei))
  })
})

describe('GET /networks/{chainId}/baseFeePercentile and busyThreshold', () => {
  test('default: nearest-rank p50 and p90 of the same 500-block window', async () => {
    for (const [path, field, p, schema] of [
      ['baseFeePercentile', 'baseFeePercentile', 50, BaseFeePercentileSchema],
      ['busyThreshold', 'busyThreshold', 90, BusyThresholdSchema],
    ] as const) {
      const res = await api(`/networks/${live()}/${path}`)
      expect(res.status).toBe(200)
      const body = schema.parse(res.body) as Record<string, string>
      expect(Object.keys(body)).toEqual([field])
      const node = await nodeFeeHistory(blockOf(res.headers), [])
      expect(body[field]).toBe(gwei(nearestRank(node.baseFees, p)))
    }
  })
})

describe('GET /networks/{chainId}/suggestedGasFees', () => {
  test("default: every field matches values computed from the node's eth_feeHistory", async () => {
    const res = await api(`/networks/${live()}/suggestedGasFees`)
    expect(res.status).toBe(200)
    const body = SuggestedGasFeesSchema.strict().parse(res.body)
    const node = await nodeFeeHistory(blockOf(res.headers), PCTS)
    const col = (p: number) => PCTS.indexOf(p)

    expect(body.estimatedBaseFee).toBe(formatGwei(node.next))
    // congestion: the mid-rank of the next base fee, kept on busyThreshold's side of 0.9
    const n = node.baseFees.length
    const midRank = (node.baseFees.filter((b) => b < node.next).length + node.baseFees.filter((b) => b === node.next).length / 2) / n
    const busy = nearestRank(node.baseFees, 90)
    const expectedCongestion = node.next > busy ? Math.max(midRank, Math.min(1, 0.9 + 1 / (2 * n))) : Math.min(midRank, 0.9)
    expect(body.networkCongestion).toBeCloseTo(expectedCongestion, 6)
    expect(body.networkCongestion > 0.9).toBe(node.next > busy)
    const sorted = [...node.baseFees].sort((a, b) => (a < b ? -1 : 1))
    expect(body.historicalBaseFeeRange).toEqual([gwei(at(sorted, 0)), gwei(at(sorted, -1))])

    const nonEmpty = node.rewards.filter((_, i) => at(node.ratios, i) > 0)
    expect(nonEmpty.length).toBeGreaterThan(20) // the devnet carries traffic
    const last = at(nonEmpty, -1)
    expect(body.latestPriorityFeeRange).toEqual([gwei(at(last, col(0))), gwei(at(last, col(100)))])
    const lows = nonEmpty.map((r) => at(r, col(0)))
    const highs = nonEmpty.map((r) => at(r, col(100)))
    expect(body.historicalPriorityFeeRange).toEqual([gwei(nearestRank(lows, 0)), gwei(nearestRank(highs, 100))])

    // tips (chain 31337 has the default policy: no floor, 10 minutes of blocks, here all 500): per block
    // what it demanded (0 for an empty block, or one showing no tip above 2 wei); per level the target
    // quantile (nearest rank, at most the 3rd largest) of the minima of every run of W blocks:
    // low W=6 at 90%, medium 3 at 95%, high 2 at 99%
    const real = (r: bigint[], p: number) => (at(r, col(p)) > 2n ? at(r, col(p)) : undefined)
    const demand = node.rewards.map((r, i) => {
      const ratio = at(node.ratios, i)
      if (ratio === 0) return 0n
      // a full block: its 10th-percentile tip; one with room: its cheapest real tip (0th, 1st, 5th above 2 wei)
      return (ratio >= 0.95 ? real(r, 10) : (real(r, 0) ?? real(r, 1) ?? real(r, 5))) ?? 0n
    })
    const tipFor = (w: number, target: number) => {
      const minima: bigint[] = []
      for (let i = 0; i + w <= demand.length; i++) minima.push(demand.slice(i, i + w).reduce((a, b) => (a < b ? a : b)))
      const s = minima.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
      return at(s, Math.max(1, Math.min(Math.ceil(target * s.length - 1e-9), s.length - 2)) - 1)
    }
    const max = (a: bigint, b: bigint) => (a > b ? a : b)
    const low = tipFor(6, 0.9)
    const medium = max(low, tipFor(3, 0.95))
    const high = max(medium, tipFor(2, 0.99))
    expect(body.low.suggestedMaxPriorityFeePerGas).toBe(gwei(low))
    expect(body.medium.suggestedMaxPriorityFeePerGas).toBe(gwei(medium))
    expect(body.high.suggestedMaxPriorityFeePerGas).toBe(gwei(high))

    // max fee: each level's base-fee cap (max fee − tip) is the forecast's bound on the base fee over the
    // answer's age (three cache periods of max(1 s, interval), in blocks of the interval the answer
    // states) and the level's wait, at its promise (lib/core/fee-math/forecast.ts): never below the next base
    // fee, and never above the old worst case, the largest per-block rise (12.5%, or the window's
    // largest when more: this chain's bounds are only assumed) over low's whole horizon, which no
    // forecast of this window's steps reaches
    const caps = [body.low, body.medium, body.high].map((l) => toWei(l.suggestedMaxFeePerGas) - toWei(l.suggestedMaxPriorityFeePerGas))
    const series = [...node.baseFees, node.next]
    let risePpm = 125_000n
    for (let i = 1; i < series.length; i++) {
      const prev = at(series, i - 1)
      const cur = at(series, i)
      if (prev > 0n && cur > prev) risePpm = max(risePpm, ((cur - prev) * 1_000_000n + prev - 1n) / prev)
    }
    if (risePpm > 1_000_000n) risePpm = 1_000_000n
    const intervalMs = Number(res.headers.get('x-block-interval-ms'))
    const ageBlocks = Math.ceil((3 * Math.min(60_000, Math.max(1_000, intervalMs))) / intervalMs - 1e-9)
    let worst = node.next
    for (let k = 0; k < ageBlocks + 6 - 1; k++) worst = (worst * (1_000_000n + risePpm) + 999_999n) / 1_000_000n
    for (const cap of caps) {
      expect(cap >= node.next).toBe(true)
      expect(cap < worst).toBe(true)
    }

    // ordering rules
    for (const field of ['suggestedMaxPriorityFeePerGas', 'suggestedMaxFeePerGas'] as const) {
      expect(toWei(body.low[field]) <= toWei(body.medium[field])).toBe(true)
      expect(toWei(body.medium[field]) <= toWei(body.high[field])).toBe(true)
    }
    for (const l of [body.medium, body.high]) {
      expect(toWei(l.suggestedMaxFeePerGas) >= node.next + toWei(l.suggestedMaxPriorityFeePerGas)).toBe(true)
    }
    for (const l of [body.low, body.medium, body.high]) expect(l.minWaitTimeEstimate).toBeLessThanOrEqual(l.maxWaitTimeEstimate)
    expect(body.high.maxWaitTimeEstimate).toBeLessThanOrEqual(body.medium.maxWaitTimeEstimate)
    expect(body.medium.maxWaitTimeEstimate).toBeLessThanOrEqual(body.low.maxWaitTimeEstimate)

    // waits are whole blocks of the interval the answer states (X-Block-Interval-Ms) ...
    const interval = Number(res.headers.get('x-block-interval-ms'))
    expect(body.low.maxWaitTimeEstimate).toBe(Math.round(6 * interval))
    expect(body.medium.maxWaitTimeEstimate).toBe(Math.round(3 * interval))
    expect(body.high.maxWaitTimeEstimate).toBe(Math.round(2 * interval))
    for (const l of [body.low, body.medium, body.high]) expect(l.minWaitTimeEstimate).toBe(Math.round(interval))
    // ... and that interval is the node's own: the mean spacing of its block timestamps from some
    // earlier block up to the head (however fast or slow this machine mined them)
    const head = blockOf(res.headers)
    const stamps = await nodeBlockTimestamps(Math.max(0, head - 2_500), head)
    const headTs = stamps.get(head) ?? Number.NaN
    // anchors at least 64 blocks back, as the service uses
    const means = [...stamps].filter(([n]) => n <= head - 64).map(([n, ts]) => Math.round(((headTs - ts) * 1000) / (head - n)))
    expect(means).toContain(interval)

    // trends, as documented
    const recentBase = [...node.baseFees.slice(-10)].sort((a, b) => (a < b ? -1 : 1))
    expect(body.baseFeeTrend).toBe(node.next > at(recentBase, 4) ? 'up' : 'down')
    const p50s = nonEmpty.slice(-20).map((r) => at(r, col(50)))
    const trend = nearestRank(p50s.slice(10), 50) > nearestRank(p50s.slice(0, 10), 50) ? 'up' : 'down'
    expect(body.priorityFeeTrend).toBe(trend)
  })
})

describe('freshness headers', () => {
  test('behavior: block number, age and cache policy on every answer; the block advances', async () => {
    // (a chain nobody asked for a while answers at once with its old window, marked stale, and reads behind it)
    const first = await eventually(async () => {
      const res = await api(`/networks/${live()}/busyThreshold`)
      return res.headers.get('x-data-stale') === 'false' ? res : undefined
    }, 'a current answer')
    expect(first.headers.get('x-block-number')).toMatch(/^\d+$/)
    // an answer is current for at most three cache periods of one interval (fresh, then while the next read runs)
    const intervalSeconds = Number(first.headers.get('x-block-interval-ms')) / 1000
    expect(Number(first.headers.get('age'))).toBeGreaterThanOrEqual(0)
    expect(Number(first.headers.get('age'))).toBeLessThanOrEqual(Math.ceil(3 * Math.max(1, intervalSeconds)))
    expect(first.headers.get('x-data-stale')).toBe('false')
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    // the chain mines on: a later answer comes from a later block
    await eventually(async () => {
      const later = await api(`/networks/${live()}/busyThreshold`)
      return blockOf(later.headers) > blockOf(first.headers) ? true : undefined
    }, 'an answer from a later block')
  })

  test('behavior: HEAD answers the headers without a body; OPTIONS lists the methods', async () => {
    const head = await api(`/networks/${live()}/baseFeeHistory`, { method: 'HEAD' })
    expect(head.status).toBe(200)
    expect(head.body).toBe('')
    expect(head.headers.get('x-block-number')).toMatch(/^\d+$/)
    const options = await api(`/networks/${live()}/baseFeeHistory`, { method: 'OPTIONS' })
    expect(options.status).toBe(204)
    expect(options.headers.get('allow')).toBe('GET, HEAD, OPTIONS')
  })
})
