import type { ChainFeePolicy } from './chain-policy'
import { PPM, WEI_PER_GWEI } from '../units'

/**
 * The fast chains' own fee rules as data (the sources are those of docs/estimator.md's table, from
 * the research notes' snapshots). lib/core/fee-math/chain-levels.ts applies them to every level made. Pure.
 */

/** Rules beyond EIP-1559's that a chain's row may carry; absent: the estimator's levels as they are. */
export type ChainRules = {
  /** The base fee is always 0: every level's max fee is its tip (no headroom over nothing). */
  zeroBaseFee?: true
  /** No tip below the lowest real tip (> 2 wei) the tip window's blocks accepted: the validators' floor is their setting. */
  tipFloorFromBlocks?: true
  /** The node's eth_feeHistory repeats the head's base fee as the next one: every cap covers one more block's rise. */
  nextBaseFeeRepeatsHead?: true
  /** Every level's max fee − tip is at least this share of the head block's own base fee (else the next), ppm. */
  minFeeCapOverBaseFeePpm?: bigint
  /** The base fee moves by at most ×e^(±seconds / this) (a time-based rule): the per-block bounds follow the measured interval. */
  baseFeeTimeConstantS?: number
  /** eth_gasPrice, read with the window, floors every level's max fee. */
  maxFeeFloorFromGasPrice?: true
  /** A second lane priced by eth_bigBlockGasPrice (read with the window): its blocks this far apart (ms), their gas limit. */
  bigBlockLane?: { intervalMs: number; gasLimit: bigint }
  /** ArbOwnerPublic.getCollectTips() (tips 0 unless true) and ArbGasInfo.getMinimumGasPrice() (the max fee's floor), read with the L1 fee. */
  arbOsTipsAndFloor?: true
  /** The chain charges the gas limit, not the gas used: transactionCost's gas is the limit the wallet signs. */
  chargesGasLimit?: true
}

/** What the window's read asks beside the window for a row's rules (no extra call on other chains). */
export type ChainRead = 'eth_gasPrice' | 'eth_bigBlockGasPrice'

/** The extra calls a policy's rules need in the window's read. */
export function chainReadsOf(policy: Pick<ChainFeePolicy, 'rules'>): ChainRead[] {
  const reads: ChainRead[] = []
  if (policy.rules?.maxFeeFloorFromGasPrice) reads.push('eth_gasPrice')
  if (policy.rules?.bigBlockLane) reads.push('eth_bigBlockGasPrice')
  return reads
}

/** Long enough for stable quantiles, short enough to follow the market (as chain-policy.ts). */
const TIP_WINDOW_MS = 10 * 60_000

/** EIP-1559's bounds planned for headroom where a chain's own are unknown: never enforced. */
const ASSUMED = { maxBaseFeeRisePpm: PPM / 8n, maxBaseFeeFallPpm: PPM / 8n, enforceBaseFeeBounds: false }

const paidTips = { minPriorityFeeWei: 0n, minSuggestedPriorityFeeWei: 0n, ignoresTips: false, tipWindowMs: TIP_WINDOW_MS }

export const bsc: ChainFeePolicy = {
  family: 'bsc',
  // bnb-chain/bsc @ 3cf90434 consensus/misc/eip1559/eip1559.go: the base fee is InitialBaseFeeForBSC = 0
  // (params/protocol_params.go), so the price is the tip; validators refuse less than their minimum gas price,
  // 0.05 gwei since late 2025 (secondary reports only: unconfirmed), so the blocks' own lowest tip is a floor too
  ...paidTips,
  minPriorityFeeWei: 50_000_000n,
  // a validator configuration, not a consensus rule: suggest what every validator accepts
  minSuggestedPriorityFeeWei: 100_000_000n,
  // a zero base fee never rises; if it ever did, plan EIP-1559's rise, never refuse data
  ...ASSUMED,
  rules: { zeroBaseFee: true, tipFloorFromBlocks: true },
}

export const opBnb: ChainFeePolicy = {
  family: 'opbnb',
  // bnb-chain/op-geth @ 1b995c36 consensus/misc/eip1559/eip1559.go: OpBNBBaseFeeForGasLess = 0 since Wright;
  // the L1 data fee comes from GasPriceOracle (the OP-stack rule)
  ...paidTips,
  // core/txpool/legacypool/legacypool.go: PriceLimit defaults to 1 wei and sanitize() raises less to 1;
  // core/txpool/validation.go refuses a remote tip under it (ErrUnderpriced): a 0 tip never enters a pool
  minPriorityFeeWei: 1n,
  // docs.bnbchain.org/bnb-opbnb/core-concepts/gas-and-fees: "min priority 1001 wei" (a sequencer setting)
  minSuggestedPriorityFeeWei: 1_001n,
  ...ASSUMED,
  rules: { zeroBaseFee: true },
}

export const monad: ChainFeePolicy = {
  family: 'monad',
  // category-labs/monad-bft @ 532472d5 monad-tfm/src/base_fee.rs: base' = base·exp(T·Δ / (28·(T + √(m − t²))·(L − T)))
  // with T = 0.8 L: at most ×e^(1/28) (a full block) and ×e^(−1/7) (an empty one) a block, never under
  // MIN_BASE_FEE = 100 gwei; rounded up so a node's fixed point never reads as out of bounds
  ...paidTips,
  maxBaseFeeRisePpm: 36_360n,
  maxBaseFeeFallPpm: 133_123n,
  enforceBaseFeeBounds: true,
  minBaseFeeWei: 100n * WEI_PER_GWEI,
  // monad-rpc/src/handlers/eth/gas.rs: eth_maxPriorityFeePerGas is a hard-coded 2 gwei and eth_feeHistory's
  // next base fee repeats the head's (get_next_block_base_fee); docs.monad.xyz gas-pricing: the gas limit is charged
  rules: { nextBaseFeeRepeatsHead: true, chargesGasLimit: true },
}

export const sonic: ChainFeePolicy = {
  family: 'sonic',
  // 0xsoniclabs/sonic @ 021825ca gossip/gasprice/base_fee.go: new = old·e^(((rate − target)/target)·seconds/128),
  // rate at most twice the target: e^(±seconds/128), sized by the measured interval (windowPolicy)
  ...paidTips,
  // evmcore/tx_pool.go (@ 0297dbe7): DefaultTxPoolConfig.MinimumTip = 1 wei, sanitize() raises less to 1, and the pool
  // refuses a remote tip under it; docs.soniclabs.com gas-pricing FAQ: eth_maxPriorityFeePerGas usually answers 1 wei
  minPriorityFeeWei: 1n,
  minSuggestedPriorityFeeWei: 1n,
  ...ASSUMED,
  // gossip/gasprice/gaspricelimits/gas_price_limits.go: suggested = base × 1.10; the pool refuses < base × 1.05. Its
  // eth_feeHistory (api/ethapi/api.go FeeHistory) reports that suggestion (MinGasPrice) as every base fee, gas used 0.99:
  // the 1.10 is taken of the head header's base fee
  rules: { minFeeCapOverBaseFeePpm: 1_100_000n, baseFeeTimeConstantS: 128 },
}

export const sei: ChainFeePolicy = {
  family: 'sei',
  // sei-protocol/sei-chain @ 73f917bb x/evm/keeper/fee.go: a governed base fee, not burned; the ante
  // (x/evm/ante/fee.go) refuses a fee cap under the base fee or the minimum fee; docs.sei.io: read eth_gasPrice
  ...paidTips,
  ...ASSUMED,
  rules: { maxFeeFloorFromGasPrice: true },
}

export const hyperEvm: ChainFeePolicy = {
  family: 'hyperevm',
  // hyperliquid docs, dual-block architecture: small blocks every 1 s, big blocks every 60 s with their own base
  // fee (eth_bigBlockGasPrice); base fee and tip are both burned (tips buy nothing: provider docs, unconfirmed)
  ...paidTips,
  ignoresTips: true,
  ...ASSUMED,
  // the same page: big blocks hold 30M gas (small ones 2M), so one big-lane transaction may use up to 30M
  rules: { bigBlockLane: { intervalMs: 60_000, gasLimit: 30_000_000n } },
}

export const megaEth: ChainFeePolicy = {
  family: 'megaeth',
  // docs.megaeth.com mini-block: ~10 ms mini-blocks inside ~1 s EVM blocks; its EIP-1559 parameters are not
  // published (faq): the waits come from the measured EVM-block interval, the bounds are assumed
  ...paidTips,
  ...ASSUMED,
}

/**
 * The piece interval of the flashblocks chains that publish one, ms. The tracker measures every chain's cadence
 * (lib/feed/piece-tracker.ts) and takes the published one when the measurement is near it (piecesPerBlock).
 * The builder's own default is 250 ms (base/base bin/builder/src/cli.rs); 200 ms is these chains' deployment.
 */
export const PUBLISHED_PIECE_MS: Readonly<Record<number, number>> = {
  // docs.base.org/base-chain/flashblocks/overview: 10 flashblocks a 2-s block, each every 200 ms
  8453: 200,
  // docs.unichain.org/docs/technical-information/flashblocks: 200-ms flashblocks, 5 a 1-s block
  130: 200,
}
