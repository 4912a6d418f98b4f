import { describe, expect, test } from 'vitest'
import { formatGwei } from 'viem'
import {
  BaseFeeHistorySchema,
  BaseFeePercentileSchema,
  BusyThresholdSchema,
  SuggestedGasFeesSchema,
} from '@/lib/fees/schemas'
import { api, ctx, gwei, nearestRank, nodeFeeHistory } from './helpers'

const PCTS = [0, 10, 30, 50, 60, 100]
const live = () => ctx().chains.live
const blockOf = (headers: Headers) => Number(headers.get('x-block-number'))
const toWei = (g: string) => {
  const [i, f = ''] = g.split('.')
  return BigInt(i) * 10n ** 9n + BigInt(f.padEnd(9, '0'))
}

describe('GET /networks/{chainId}/baseFeeHistory', () => {
  test('default: the 500 most recent base fees, oldest first, equal to the node\'s eth_feeHistory', async () => {
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
  test('default: every field matches values computed from the node\'s eth_feeHistory', async () => {
    const res = await api(`/networks/${live()}/suggestedGasFees`)
    expect(res.status).toBe(200)
    const body = SuggestedGasFeesSchema.strict().parse(res.body)
    const node = await nodeFeeHistory(blockOf(res.headers), PCTS)
    const col = (p: number) => PCTS.indexOf(p)

    expect(body.estimatedBaseFee).toBe(formatGwei(node.next))
    expect(body.networkCongestion).toBe(node.baseFees.filter((b) => b <= node.next).length / node.baseFees.length)
    const sorted = [...node.baseFees].sort((a, b) => (a < b ? -1 : 1))
    expect(body.historicalBaseFeeRange).toEqual([gwei(sorted[0]), gwei(sorted.at(-1)!)])

    const nonEmpty = node.rewards.filter((_, i) => node.ratios[i] > 0)
    expect(nonEmpty.length).toBeGreaterThan(20) // the devnet carries traffic
    const last = nonEmpty.at(-1)!
    expect(body.latestPriorityFeeRange).toEqual([gwei(last[col(0)]), gwei(last[col(100)])])
    const lows = nonEmpty.map((r) => r[col(0)])
    const highs = nonEmpty.map((r) => r[col(100)])
    expect(body.historicalPriorityFeeRange).toEqual([gwei(nearestRank(lows, 0)), gwei(nearestRank(highs, 100))])

    // tips: median over the last 20 non-empty blocks of the level's percentile (10 / 30 / 60)
    const recent = nonEmpty.slice(-20)
    const tip = (p: number) => nearestRank(recent.map((r) => r[col(p)]), 50)
    const low = tip(10)
    const medium = low > tip(30) ? low : tip(30)
    const high = medium > tip(60) ? medium : tip(60)
    expect(body.low.suggestedMaxPriorityFeePerGas).toBe(gwei(low))
    expect(body.medium.suggestedMaxPriorityFeePerGas).toBe(gwei(medium))
    expect(body.high.suggestedMaxPriorityFeePerGas).toBe(gwei(high))
    expect(body.low.suggestedMaxFeePerGas).toBe(gwei(node.next + low))

    // ordering rules
    const levels = [body.low, body.medium, body.high]
    for (const field of ['suggestedMaxPriorityFeePerGas', 'suggestedMaxFeePerGas'] as const) {
      expect(toWei(levels[0][field]) <= toWei(levels[1][field])).toBe(true)
      expect(toWei(levels[1][field]) <= toWei(levels[2][field])).toBe(true)
    }
    for (const l of [body.medium, body.high]) {
      expect(toWei(l.suggestedMaxFeePerGas) >= node.next + toWei(l.suggestedMaxPriorityFeePerGas)).toBe(true)
    }
    for (const l of levels) expect(l.minWaitTimeEstimate).toBeLessThanOrEqual(l.maxWaitTimeEstimate)
    expect(body.high.maxWaitTimeEstimate).toBeLessThanOrEqual(body.medium.maxWaitTimeEstimate)
    expect(body.medium.maxWaitTimeEstimate).toBeLessThanOrEqual(body.low.maxWaitTimeEstimate)

    // waits derive from the measured interval: the devnet mines a block a second
    expect(body.medium.maxWaitTimeEstimate).toBeGreaterThanOrEqual(3 * 900)
    expect(body.medium.maxWaitTimeEstimate).toBeLessThanOrEqual(3 * 1_200)

    // trends, as documented
    const recentBase = [...node.baseFees.slice(-10)].sort((a, b) => (a < b ? -1 : 1))
    expect(body.baseFeeTrend).toBe(node.next > recentBase[4] ? 'up' : 'down')
    const p50s = recent.map((r) => r[col(50)])
    const trend = nearestRank(p50s.slice(10), 50) > nearestRank(p50s.slice(0, 10), 50) ? 'up' : 'down'
    expect(body.priorityFeeTrend).toBe(trend)
  })
})

describe('freshness headers', () => {
  test('behavior: block number, age and cache policy on every answer; the block advances', async () => {
    const first = await api(`/networks/${live()}/busyThreshold`)
    expect(first.headers.get('x-block-number')).toMatch(/^\d+$/)
    expect(Number(first.headers.get('age'))).toBeGreaterThanOrEqual(0)
    expect(Number(first.headers.get('age'))).toBeLessThanOrEqual(2)
    expect(first.headers.get('x-data-stale')).toBe('false')
    expect(first.headers.get('cache-control')).toMatch(/^private, max-age=\d+$/)
    await new Promise((r) => setTimeout(r, 2_500))
    const later = await api(`/networks/${live()}/busyThreshold`)
    expect(blockOf(later.headers)).toBeGreaterThan(blockOf(first.headers))
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
