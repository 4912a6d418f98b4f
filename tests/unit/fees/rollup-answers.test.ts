// lib/fees on rollups (issue 41), with the chain feed replaced by literal windows: each chain's rule from the
// registry, Linea's tip floor in every answer made from levels (suggestedGasFees, the stream's bodies,
// Blocknative's confidence levels, replacementFees, transactionCost), transactionCost's body per family.
import { describe, expect, test, vi } from 'vitest'
import type { FeeWindow, L1FeeParams } from '@/lib/core/types'
import { TransactionCostSchema } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { scrollCompressorAvailable } from '@/lib/runtime/zstd-scroll'
import { flatRewards, makeWindow } from '../../support/windows'
import { GALILEO_MISMATCH_SIGNED, MANTLE_GETH, SCROLL_REVM, unsignedOf } from '../../support/rollup-vectors'

const ENV = {
  USE_PUBLIC_RPCS: false,
  rpcUrls: Object.fromEntries(['59144', '5000', '324', '534352', '1088', '10'].map((id) => [id, [`http://node-${id}`]])),
  CHAIN_FEE_POLICIES: {},
  RPC_TIMEOUT_MS: 1_000,
  MAX_STALE_SECONDS: 60,
  FEED_WARM_SECONDS: 60,
  FEED_WAIT_MS: 100,
}
const windows = new Map<number, FeeWindow>()

vi.mock('@/lib/env', async (importOriginal) => ({ ...(await importOriginal<typeof import('@/lib/env')>()), getServerEnv: () => ENV }))
vi.mock('@/lib/feed/feeds', () => ({
  chainFeed: (chain: { id: number }) => ({
    chain,
    get: async () => ({ window: windows.get(chain.id)!, stale: false, freshUntil: 0 }),
    subscribe: () => () => {},
  }),
  heldWindows: () => [],
}))

const { getFeeReport } = await import('@/lib/fees/reports')
const { getConfidenceReport } = await import('@/lib/fees/confidence')
const { getTransactionCost } = await import('@/lib/fees/transaction-cost')
const { getReplacementFees } = await import('@/lib/fees/replacement')

/** 500 blocks of 2 s at `base` wei, half full, tips 20–35 Mwei. */
function window(chainId: number, base: bigint, extra: Partial<FeeWindow> = {}): FeeWindow {
  const rewards = Array.from({ length: 500 }, (_, i) => flatRewards((20n + BigInt(i % 16)) * 1_000_000n))
  const w = makeWindow({ baseFees: Array(500).fill(base), next: base, rewards, intervalMs: 2_000 })
  return { ...w, chainId, headGasLimit: '2000000000', ...extra }
}

// Linea mainnet 28,279,180 (2026-01): fixed 0.03 gwei, 1 gwei per compressed byte, ETH_GAS_PRICE 0.041904 gwei
windows.set(
  59144,
  window(59144, 7n, { lineaPricing: { fixedCostWei: '30000000', variableCostWei: '1000000000', ethGasPriceWei: '41904000' } }),
)
// mantle op-geth rollup_cost_test.go's parameters
const MANTLE: L1FeeParams = { ...MANTLE_GETH }
windows.set(5000, window(5000, 20_000_000n, { l1Fee: MANTLE }))
windows.set(324, window(324, 25_000_000n))
// scroll-revm l1block.rs test_rollup_fee_galileo's parameters
const SCROLL: L1FeeParams = { ...SCROLL_REVM }
windows.set(534352, window(534352, 1_000_000n, { l1Fee: SCROLL }))
windows.set(1088, window(1088, 1_000_000n))

const LEVELS = ['low', 'medium', 'high'] as const
const costOf = async (chainId: number, query: Parameters<typeof getTransactionCost>[1]) =>
  TransactionCostSchema.strict().parse(JSON.parse((await getTransactionCost(chainId, query)).body))

describe('Linea: every answer made from levels tips at least the floor', () => {
  const FLOOR = 41_903_993n

  test('default: suggestedGasFees (and so the stream), gasPrices, Blocknative confidence levels and replacementFees', async () => {
    const { bodies } = await getFeeReport(59144)
    const fees = JSON.parse(bodies.suggestedGasFees)
    for (const level of LEVELS) expect(parseGwei(fees[level].suggestedMaxPriorityFeePerGas) >= FLOOR).toBe(true)
    const confidence = await getConfidenceReport(59144, [99, 90, 70])
    for (const p of confidence.prices) expect(p.maxPriorityFeePerGas >= FLOOR).toBe(true)
    const replacement = JSON.parse((await getReplacementFees(59144, { type: 'eip1559', maxFeePerGas: 1n, maxPriorityFeePerGas: 1n })).body)
    for (const level of LEVELS) expect(replacement[level].maxPriorityFeePerGas).toBe(fees[level].suggestedMaxPriorityFeePerGas)
  })

  test("behavior: transactionCost's levels are suggestedGasFees' for a transfer, the floor at its size for 20 KB at 400,000 gas", async () => {
    const fees = JSON.parse((await getFeeReport(59144)).bodies.suggestedGasFees)
    const transfer = await costOf(59144, { gas: 21_000n })
    expect(transfer).toMatchObject({ nativeToken: 'ETH', l1DataFee: '0', l1DataFeeBasis: 'exact', priorityFeeFloor: '0.041903993' })
    for (const level of LEVELS) {
      expect(transfer[level].maxPriorityFeePerGas).toBe(fees[level].suggestedMaxPriorityFeePerGas)
      expect(transfer[level].maxFeePerGas).toBe(fees[level].suggestedMaxFeePerGas)
    }
    const heavy = await costOf(59144, { gas: 400_000n, txBytes: 20_534 })
    expect(heavy.priorityFeeFloor).toBe('0.098208')
    for (const level of LEVELS) expect(heavy[level].maxPriorityFeePerGas).toBe('0.098208')
  })
})

describe('transactionCost per family', () => {
  test('default: Mantle answers in MNT: the L1 fee × tokenRatio and the operator fee (TestTotalRollupCostFunc)', async () => {
    const cost = await costOf(5000, { gas: 1_618n, txBytes: 51 })
    expect(cost).toMatchObject({
      nativeToken: 'MNT',
      l1DataFee: '3203',
      l1DataFeeBasis: 'upperBound',
      operatorFee: '1256650673.61517386',
      priorityFeeFloor: null,
    })
  })

  test('default: zkSync Era: tips 0, fee = gas × the next base fee, nothing beside gas', async () => {
    const cost = await costOf(324, { gas: 250_000n })
    expect(cost).toMatchObject({ nativeToken: 'ETH', l1DataFee: '0', l1DataFeeBasis: 'exact', operatorFee: '0' })
    for (const level of LEVELS) {
      expect(cost[level].maxPriorityFeePerGas).toBe('0')
      expect(parseGwei(cost[level].fee)).toBe(250_000n * 25_000_000n)
    }
  })

  test("default: Scroll with txBytes: Galileo's fee at size + 68, an upper bound", async () => {
    const cost = await costOf(534352, { gas: 21_000n, txBytes: 32 })
    expect(cost).toMatchObject({ l1DataFee: '344.821983141', l1DataFeeBasis: 'upperBound', operatorFee: '0' })
  })

  test.runIf(process.env.CI === 'true' || scrollCompressorAvailable())(
    "behavior: Scroll with tx: exact, Galileo's fee at the compressed size of the signed transaction",
    async () => {
      // reth compression.rs's galileo-mismatch transaction, given unsigned: 301 bytes compressed, as its real
      // signature made it; scroll-revm's parameters: Galileo's fee at cs 301 is 1,058,569,688,860 wei
      const cost = await costOf(534352, { gas: 500_000n, tx: unsignedOf(GALILEO_MISMATCH_SIGNED) })
      expect(cost).toMatchObject({ l1DataFeeBasis: 'exact', l1DataFee: '1058.56968886' })
      const bound = await costOf(534352, { gas: 500_000n, txBytes: (unsignedOf(GALILEO_MISMATCH_SIGNED).length - 2) / 2 })
      expect(parseGwei(cost.l1DataFee!)).toBeLessThan(parseGwei(bound.l1DataFee!))
    },
  )

  test('error: Scroll with a tx that is no transaction is a 400 naming tx', async () => {
    await expect(costOf(534352, { gas: 21_000n, tx: `0x${'ab'.repeat(32)}` })).rejects.toMatchObject({ name: 'InvalidQueryError' })
  })

  test('behavior: Metis stays unknown: l1DataFee null, basis null', async () => {
    const cost = await costOf(1088, { gas: 21_000n })
    expect(cost).toMatchObject({ nativeToken: 'METIS', l1DataFee: null, l1DataFeeBasis: null, operatorFee: null })
  })
})
