// npm run bench:accuracy: the CPU one accuracy report costs (GET /networks/{chainId}/accuracy, the
// /metrics gauges): the backtest (ours, lenient judge) over a synthetic 500-block window, and on a flashblocks
// chain the judge per piece over the 600 pieces a feed keeps.
import { accuracyOf, windowPieceAccuracy } from '../lib/core/evaluation/accuracy'
import { chainFeePolicy } from '../lib/core/chain-rules/chain-policy'
import { REWARD_PERCENTILES } from '../lib/core/fee-math/estimator'
import type { FeeWindow, SeenPiece } from '../lib/core/types'

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
/** Base-like: 2-s blocks of 10 pieces, the last 60 blocks' pieces followed, every fourth piece full with 40 transactions. */
const pieced: FeeWindow = { ...window, chainId: 8453, blockIntervalMs: 2_000 }
const seen: SeenPiece[] = Array.from({ length: 600 }, (_, k) => {
  const piece = (k % 10) + 1
  const perPiece = 6_000_000
  const gasUsed = String(piece * perPiece - (k % 4 === 0 ? 0 : 3_000_000))
  const newest = Array.from({ length: 40 }, (_, t) => ({ tip: String(1_000_000 + ((t * 7919 + k) % 5000) * 1000), gas: '150000' }))
  newest.sort((a, b) => Number(a.tip) - Number(b.tip))
  const view = {
    blockNumber: pieced.headNumber - 59 + Math.floor(k / 10),
    piece,
    pieces: 10,
    cadenceMs: 200,
    gasLimit: '60000000',
    gasUsed,
    newest,
    readAt: k * 200,
  }
  return { view, lastReadAt: k * 200 }
})

const runs = 21
const time = (f: () => void) => {
  const ms: number[] = []
  for (let k = 0; k < runs; k++) {
    const t = performance.now()
    f()
    ms.push(performance.now() - t)
  }
  ms.sort((a, b) => a - b)
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1)
  return `${at(0)} | ${at(0.5)} | ${at(1)}`
}
console.log(`npm run bench:accuracy   (${runs} runs each, one process)\n`)
console.log('| report | min ms | median ms | max ms |')
console.log('|---|---|---|---|')
console.log(`| accuracyOf, a synthetic ${n}-block window | ${time(() => accuracyOf(window, chainFeePolicy(1)))} |`)
console.log(
  `| windowPieceAccuracy, ${seen.length} pieces over 60 blocks (Base's policy) | ${time(() => windowPieceAccuracy(pieced, chainFeePolicy(8453), seen))} |`,
)
// as the service makes it once per piece: the earlier pieces' suggestions kept, one new piece's made
const memo = new WeakMap()
windowPieceAccuracy(pieced, chainFeePolicy(8453), seen.slice(0, -1), memo)
console.log(
  `| the same, the suggestions of the first ${seen.length - 1} kept from an earlier report | ${time(() => windowPieceAccuracy(pieced, chainFeePolicy(8453), seen, memo))} |`,
)
