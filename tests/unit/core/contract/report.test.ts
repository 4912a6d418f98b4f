// The base-fee forecast's body in the fee report (lib/core/contract/report.ts buildFeeReport): the pure
// forecaster's answer (lib/core/fee-math/forecast.ts) in gwei, at the window's head, by the chain's policy with
// its live parameters.
import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { forecastBaseFee } from '@/lib/core/fee-math/forecast'
import { buildFeeReport, buildTransactionCost } from '@/lib/core/contract/report'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { BaseFeeForecastSchema, TransactionCostSchema } from '@/lib/core/contract/schemas'
import type { TransactionCost } from '@/lib/core/fee-math/transaction-cost'
import { formatGwei, parseGwei } from '@/lib/core/units'
import { mainnet100BlockWindow, makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n
// Base's 2026 parameters (elasticity 5, denominator 100: +4% a block) in Holocene's extraData
const BASE_EXTRA_DATA = '0x' + '00' + '00000064' + '00000005'

/** next × (1 + ppm/10⁶)^steps, rounded up at each step. */
function grown(next: bigint, ppm: bigint, steps: number): bigint {
  let v = next
  for (let i = 0; i < steps; i++) v = (v * (1_000_000n + ppm) + 999_999n) / 1_000_000n
  return v
}

describe('buildFeeReport: baseFeeForecast', () => {
  test('default: the forecaster at the head, in gwei, without its method; k = 1 is the next base fee', () => {
    const window = mainnet100BlockWindow()
    const report = buildFeeReport(window)
    const body = BaseFeeForecastSchema.strict().parse(report.baseFeeForecast)
    const data = toFeeData(window)
    const want = forecastBaseFee(data.baseFees, data.nextBaseFee, chainFeePolicy(1))
    expect(body).toEqual({
      blockNumber: window.headNumber,
      estimatedBaseFee: formatGwei(want.estimatedBaseFee),
      horizons: want.horizons.map((h) => ({
        blocks: h.blocks,
        p50: formatGwei(h.p50),
        p90: formatGwei(h.p90),
        p99: formatGwei(h.p99),
        bound: h.bound === null ? null : formatGwei(h.bound),
      })),
    })
    expect(body.horizons.map((h) => h.blocks)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10])
    expect(body.estimatedBaseFee).toBe(report.suggestedGasFees.estimatedBaseFee)
    const first = body.horizons[0]!
    expect([first.p50, first.p90, first.p99, first.bound]).toEqual(Array(4).fill(body.estimatedBaseFee))
    // Ethereum enforces its bound: p50 ≤ p90 ≤ p99 ≤ next × 1.125^(k − 1)
    for (const h of body.horizons) {
      expect(h.bound).toBe(formatGwei(grown(data.nextBaseFee, 125_000n, h.blocks - 1)))
      const [p50, p90, p99, bound] = [h.p50, h.p90, h.p99, h.bound!].map(parseGwei) as [bigint, bigint, bigint, bigint]
      expect(p50 <= p90 && p90 <= p99 && p99 <= bound).toBe(true)
    }
  })

  test('behavior: a chain that enforces no bound (an unknown chain) has bound null', () => {
    const window = { ...mainnet100BlockWindow(), chainId: 31337 }
    expect(buildFeeReport(window).baseFeeForecast.horizons.map((h) => h.bound)).toEqual(Array(10).fill(null))
  })

  test.each([
    ['no extraData: the table’s 2% a block, only assumed: bound null', undefined, 20_000n, false],
    ['Base’s live parameters in the head’s extraData: 4% a block, the chain’s rule: bound served', BASE_EXTRA_DATA, 40_000n, true],
  ])('behavior: OP-stack, a window under 64 steps: every quantile is the bound path (%s)', (_, extraData, ppm, rule) => {
    const next = GWEI / 100n
    const window = { ...makeWindow({ baseFees: Array(40).fill(next), next }), chainId: 8453, headExtraData: extraData }
    const body = buildFeeReport(window, chainFeePolicy(8453)).baseFeeForecast
    for (const h of body.horizons) {
      const assumed = formatGwei(grown(next, ppm, h.blocks - 1))
      expect([h.p50, h.p90, h.p99], `k = ${h.blocks}`).toEqual([assumed, assumed, assumed])
      expect(h.bound).toBe(rule ? assumed : null)
    }
  })
})

describe('buildTransactionCost', () => {
  const level = (fee: bigint) => ({
    fee,
    maxFee: fee * 2n,
    maxPriorityFeePerGas: 98_208_000n,
    maxFeePerGas: 98_208_007n,
    minWaitTimeMs: 250,
    maxWaitTimeMs: 500,
  })

  test.each([
    // Mantle: TestTotalRollupCostFunc's fees, in MNT wei
    [
      'Mantle (MNT, an upper bound)',
      {
        nativeToken: 'MNT',
        l1DataFee: 3_203_000_000_000n,
        l1DataFeeBasis: 'upperBound',
        operatorFee: 1_256_650_673_615_173_860n,
        priorityFeeFloor: null,
      },
      { nativeToken: 'MNT', l1DataFee: '3203', l1DataFeeBasis: 'upperBound', operatorFee: '1256650673.61517386', priorityFeeFloor: null },
    ],
    [
      'Linea (the data cost in the tip)',
      { nativeToken: 'ETH', l1DataFee: 0n, l1DataFeeBasis: 'exact', operatorFee: 0n, priorityFeeFloor: 98_208_000n },
      { nativeToken: 'ETH', l1DataFee: '0', l1DataFeeBasis: 'exact', operatorFee: '0', priorityFeeFloor: '0.098208' },
    ],
    [
      'an L2 whose L1 fee is not computed, on a chain viem does not know',
      { nativeToken: null, l1DataFee: null, l1DataFeeBasis: null, operatorFee: null, priorityFeeFloor: null },
      { nativeToken: null, l1DataFee: null, l1DataFeeBasis: null, operatorFee: null, priorityFeeFloor: null },
    ],
  ] as const)('default: %s: every amount in decimal gwei of the native token, JSON-plain, as the schema says', (_, fields, want) => {
    const cost: TransactionCost = {
      blockNumber: 7,
      gas: 400_000n,
      txBytes: 20_534,
      ...fields,
      levels: { low: level(1n), medium: level(2n), high: level(3n) },
    }
    const body = TransactionCostSchema.strict().parse(buildTransactionCost(cost))
    expect(body).toMatchObject({ blockNumber: 7, gas: 400_000, txBytes: 20_534, ...want })
    expect(body.high).toEqual({
      fee: '0.000000003',
      maxFee: '0.000000006',
      maxPriorityFeePerGas: '0.098208',
      maxFeePerGas: '0.098208007',
      minWaitTimeEstimate: 250,
      maxWaitTimeEstimate: 500,
    })
    expect(JSON.parse(JSON.stringify(body))).toEqual(body)
  })
})
