// The policy at a window: Linea's tip floor from the head's extraData v1 (issue 41). Header: mainnet block
// 28,279,180 of 2026-01 (../shared/research/rollup-fee-rules.md, from Consensys/linea-monorepo @ cb180134
// replay headers): fixed 30,000,000 wei, variable 1,000,000,000 wei per compressed byte, ETH_GAS_PRICE
// 41,904,000 wei; base fee 7 wei, as on every Linea block of the replays.
import { describe, expect, test } from 'vitest'
import { chainFeePolicy, withLiveParams } from '@/lib/core/chain-rules/chain-policy'
import { buildFeeReport } from '@/lib/core/contract/report'
import { confidencePrices } from '@/lib/core/fee-math/confidence'
import { estimateLevels } from '@/lib/core/fee-math/estimator'
import { toFeeData } from '@/lib/core/fee-math/fee-data'
import { parseLineaExtraData } from '@/lib/core/fee-math/linea-fee'
import { levelSuggestions } from '@/lib/core/fee-math/replacement'
import { lineaTransferTipFloor, windowPolicy } from '@/lib/core/fee-math/window-policy'
import type { FeeWindow, LineaPricing } from '@/lib/core/types'
import { parseGwei } from '@/lib/core/units'
import { makeWindow } from '../../../support/windows'

const MAINNET_2026_01 = '0x0100007530000f42400000a3b0' + '00'.repeat(19)
const PRICING = parseLineaExtraData(MAINNET_2026_01)!
const LEVELS = ['low', 'medium', 'high'] as const

/** 500 Linea blocks of 2 s at base fee 7 wei, half full, whose tips run 20–35 Mwei (`tipMwei` shifts them). */
function lineaWindow(pricing: LineaPricing | undefined, tipMwei = 20n): FeeWindow {
  const n = 500
  const rewards = Array.from({ length: n }, (_, i) => {
    const tip = (tipMwei + BigInt(i % 16)) * 1_000_000n
    return [tip, tip, tip, tip, tip + 5_000_000n, tip + 10_000_000n]
  })
  const window = makeWindow({ baseFees: Array(n).fill(7n), next: 7n, rewards, intervalMs: 2_000 })
  return { ...window, chainId: 59144, headExtraData: MAINNET_2026_01, ...(pricing ? { lineaPricing: pricing } : {}) }
}

describe('lineaTransferTipFloor', () => {
  test.each([
    // the minimum gas price decides: 41,904,000 − 7
    ['mainnet 2026-01', PRICING, 41_903_993n],
    // no minimum gas price: the profitable tip at cs 96, margin 1.2 (the research table's 41,485,713)
    ['mainnet 2026-01 without ETH_GAS_PRICE', { ...PRICING, ethGasPriceWei: '0' }, 41_485_713n],
  ])('default: %s: the default transfer (21,000 gas, 51 bytes) floor is %i wei', (_, pricing, floor) => {
    expect(lineaTransferTipFloor(lineaWindow(pricing))).toBe(floor)
  })

  test('behavior: no extraData v1 pricing: no floor', () => {
    expect(lineaTransferTipFloor(lineaWindow(undefined))).toBeNull()
  })
})

describe('windowPolicy', () => {
  test('default: on Linea every level of suggestedGasFees tips at least the floor (recent tips 20–35 Mwei); max fees rise with it', () => {
    const policy = chainFeePolicy(59144)
    const floored = buildFeeReport(lineaWindow(PRICING), policy).suggestedGasFees
    const plain = buildFeeReport(lineaWindow(undefined), policy).suggestedGasFees
    for (const level of LEVELS) {
      const tip = parseGwei(floored[level].suggestedMaxPriorityFeePerGas)
      expect(tip >= 41_903_993n).toBe(true)
      // the blocks alone would have suggested less
      expect(parseGwei(plain[level].suggestedMaxPriorityFeePerGas) < 41_903_993n).toBe(true)
      // the same base-fee headroom on top of the higher tip
      const headroom = (l: typeof floored) => parseGwei(l[level].suggestedMaxFeePerGas) - parseGwei(l[level].suggestedMaxPriorityFeePerGas)
      expect(headroom(floored)).toBe(headroom(plain))
    }
    expect(floored.low.suggestedMaxPriorityFeePerGas).toBe('0.041903993')
  })

  test("behavior: the blocks' own tips decide when they are higher than the floor", () => {
    const policy = chainFeePolicy(59144)
    const high = buildFeeReport(lineaWindow(PRICING, 60n), policy).suggestedGasFees
    const noFloor = buildFeeReport(lineaWindow(undefined, 60n), policy).suggestedGasFees
    expect(high).toEqual(noFloor)
    expect(parseGwei(high.low.suggestedMaxPriorityFeePerGas) >= 60_000_000n).toBe(true)
  })

  test('behavior: without a v1 extraData the policy is withLiveParams alone: answers as before', () => {
    const window = lineaWindow(undefined)
    const policy = chainFeePolicy(59144)
    expect(windowPolicy(policy, window)).toEqual(withLiveParams(policy, window.headExtraData))
  })

  test('behavior: every answer made from levels takes the floor: gasPrices, replacementFees and transactionCost levels, Blocknative confidence levels', () => {
    const window = lineaWindow(PRICING)
    const policy = windowPolicy(chainFeePolicy(59144), window)
    const report = buildFeeReport(window, chainFeePolicy(59144))
    for (const price of Object.values(report.gasPrices)) expect(parseGwei(price) >= 7n + 41_903_993n).toBe(true)
    const suggestions = levelSuggestions(window, policy)
    for (const level of LEVELS) expect(suggestions[level].fees!.maxPriorityFeePerGas >= 41_903_993n).toBe(true)
    for (const c of confidencePrices(toFeeData(window), policy, [1, 50, 70, 90, 99]))
      expect(c.maxPriorityFeePerGas >= 41_903_993n).toBe(true)
  })

  test('behavior: idempotent', () => {
    const window = lineaWindow(PRICING)
    const once = windowPolicy(chainFeePolicy(59144), window)
    expect(windowPolicy(once, window)).toEqual(once)
  })

  test('behavior: a policy whose tips buy nothing keeps them at 0', () => {
    const window = lineaWindow(PRICING)
    const ignoring = windowPolicy({ ...chainFeePolicy(59144), ignoresTips: true }, window)
    for (const level of Object.values(estimateLevels(toFeeData(window), ignoring))) expect(level.maxPriorityFeePerGas).toBe(0n)
  })
})
