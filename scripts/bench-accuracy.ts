// npm run bench:accuracy: the CPU one accuracy report costs (GET /networks/{chainId}/accuracy, the
// /metrics gauges): the backtest (ours, lenient judge) over a synthetic 500-block window.
import { accuracyOf } from '../lib/core/evaluation/accuracy'
import { chainFeePolicy } from '../lib/core/chain-rules/chain-policy'
import { REWARD_PERCENTILES } from '../lib/core/fee-math/estimator'
import type { FeeWindow } from '../lib/core/types'

const n = 500
const window: FeeWindow = {
  chainId: 1,
  oldestBlock: 1_000,
  headNumber: 1_000 + n - 1,
  headTimestamp: 0,
  blockIntervalMs: 12_000,
  intervalAnchor: null,
  baseFeePerGas: Array.from({ length: n }, (_, i) => String(10_000_000_000 + ((i * 7919) % 1000) * 1_000_000)),
  nextBaseFeePerGas: '10000000000',
  gasUsedRatio: Array.from({ length: n }, (_, i) => ((i * 31) % 100) / 100),
  rewardPercentiles: [...REWARD_PERCENTILES],
  reward: Array.from({ length: n }, (_, i) => REWARD_PERCENTILES.map((p) => String(100_000_000 * (p + 1) + i))),
  fetchedAt: 0,
}
const runs = 21
const ms: number[] = []
for (let k = 0; k < runs; k++) {
  const t = performance.now()
  accuracyOf(window, chainFeePolicy(1))
  ms.push(performance.now() - t)
}
ms.sort((a, b) => a - b)
const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1)
console.log(`npm run bench:accuracy   (${runs} runs of accuracyOf on a synthetic ${n}-block window, one process)\n`)
console.log('| blocks | min ms | median ms | max ms |')
console.log('|---|---|---|---|')
console.log(`| ${n} | ${at(0)} | ${at(0.5)} | ${at(1)} |`)
