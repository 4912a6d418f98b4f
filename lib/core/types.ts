/**
 * A chain's fee window as read from the node: JSON-plain (decimal wei strings, no bigint, no Date),
 * so it can live in `unstable_cache`. Produced by lib/upstream, consumed by the pure code here.
 */
export type FeeWindow = {
  chainId: number
  /** First block of the window. */
  oldestBlock: number
  /** Latest block of the window (= oldestBlock + baseFeePerGas.length − 1). */
  headNumber: number
  /** Latest block's timestamp, unix seconds. */
  headTimestamp: number
  /** Mean block interval measured from block timestamps, milliseconds. */
  blockIntervalMs: number
  /** The older block the interval is measured from (number, unix seconds), kept for the next read. */
  intervalAnchor: { number: number; timestamp: number } | null
  /** Base fee of each block of the window, wei (decimal string), oldest first. */
  baseFeePerGas: string[]
  /** Base fee of the NEXT block as the node reports it (last entry of eth_feeHistory.baseFeePerGas), wei. */
  nextBaseFeePerGas: string
  /** gasUsed / gasLimit of each block of the window. */
  gasUsedRatio: number[]
  /** The reward percentiles asked of eth_feeHistory, ascending. */
  rewardPercentiles: number[]
  /**
   * Per block, the effective priority fee (wei) at each of rewardPercentiles; an empty row where the
   * node sent none ([] or null: a block without transactions, on some clients): no tip data.
   */
  reward: string[][]
  /**
   * Blob base fee of each block of the window, wei (decimal string), oldest first: eth_feeHistory's
   * baseFeePerBlobGas without its last entry. The three blob fields are there together or not at all
   * (a node that reports none, or pages of history that disagree); optional, so a window cached before
   * them is still valid.
   */
  baseFeePerBlobGas?: string[]
  /** Blob base fee of the NEXT block as the node reports it (last entry of eth_feeHistory.baseFeePerBlobGas), wei. */
  nextBaseFeePerBlobGas?: string
  /** blobGasUsed / the block's maximum blob gas, for each block of the window (eth_feeHistory.blobGasUsedRatio). */
  blobGasUsedRatio?: number[]
  /** The head block's extraData (hex), where OP-stack chains carry their EIP-1559 parameters. */
  headExtraData?: string
  /** The head block's gas limit (decimal): no transaction on the chain can use more. */
  headGasLimit?: string
  /**
   * What the chain's predeploys reported at the head for the L1 part of a transaction's cost (OP-stack,
   * Arbitrum), read in the same batch as the window; absent on chains without one.
   */
  l1Fee?: L1FeeParams
  /**
   * The chain's blocks carry no baseFeePerGas (no EIP-1559 fee market: pre-London or a chain that never
   * adopted it). eth_feeHistory then answers base fees of 0 and rewards that are the transactions'
   * whole gas prices (go-ethereum's feehistory.go processBlock; anvil --hardfork berlin likewise):
   * only GET gasPrices answers from such a window.
   */
  legacy?: true
  /** When the window was read from the node, ms since the epoch. */
  fetchedAt: number
  /**
   * When the next read is due, ms since the epoch: set by the feed when it reads (lib/feed/read-timing.ts
   * nextRead, timed on the chain's blocks), and carried with the window to the other instances.
   * Optional, so no cache or store version bump: a window without it (from an older instance) is
   * fresh for one period after it was read, the rule before.
   */
  nextReadAt?: number
  /**
   * The read timing's state after this read (lib/feed/read-timing.ts nextRead), carried with the window so
   * that whichever instance reads next continues from it (it includes when this read started).
   */
  readPhase?: ReadPhase
  /**
   * When the newest upstream reads of this chain started, ms since the epoch (at most
   * MAX_READS_PER_PERIOD of them, oldest first), by whichever instance of a group made them: the
   * group's read ceiling (lib/core/contract/freshness.ts) is checked against it. Optional like nextReadAt.
   */
  readStarts?: number[]
}

/** Which L1 fee a chain charges beside gas, so which predeploys the window's read asks. */
export type L1FeeRule = 'op-stack' | 'arbitrum'

/**
 * The L1 fee parameters of an L2's head, JSON-plain (decimal wei strings).
 * - `op-stack`: GasPriceOracle's Fjord inputs (l1BaseFee, blobBaseFee, the two scalars) and L1Block's
 *   operator fee parameters, with the forks that choose the operator fee's formula.
 * - `arbitrum`: ArbGasInfo.getPricesInWei()'s price per L1 calldata byte, wei.
 * - `unavailable`: the chain charges one but its predeploys did not answer as expected (a chain
 *   before Fjord, a node that refuses eth_call): the cost is served without it and says so.
 */
export type L1FeeParams =
  | {
      rule: 'op-stack'
      l1BaseFee: string
      blobBaseFee: string
      baseFeeScalar: number
      blobBaseFeeScalar: number
      isthmus: boolean
      jovian: boolean
      operatorFeeScalar: number
      operatorFeeConstant: string
    }
  | { rule: 'arbitrum'; perL1CalldataByte: string }
  | { rule: 'unavailable'; reason: string }

/**
 * The read timing's state (lib/feed/read-timing.ts nextRead): where the held head's slot is on the
 * clock the reads are timed on, and how long after a slot its block reaches the node (an upper
 * envelope learned from the reads themselves). A node's constant clock skew (a replay node serving
 * old timestamps) is inside the envelope and cancels out. Carried as JSON: nextRead starts over from
 * a phase that is not whole.
 */
export type ReadPhase = {
  /** The newest head any read has seen (a lagging node's older answer does not lower it). */
  head: number
  /** That head's timestamp, ms (the node's clock). */
  headTimestampMs: number
  /**
   * That head's slot, ms: its timestamp while timestamps track the wall clock; on a drifting chain
   * (`wallClock`) a wall-clock time projected from the blocks' arrivals.
   */
  refMs: number
  /** The timestamp step between consecutive blocks, ms (the last regular gap; the measured mean interval before). */
  stepMs: number
  /**
   * Wall time per block minus the timestamp step, ms (the slope over the last 64–128 blocks): about 0
   * where timestamps track the wall clock; 1,000 on a devnet whose timestamps advance 1 s per 2-s block.
   */
  driftMs: number
  /** Whether reads are timed on the wall clock (the drift is past a quarter step) rather than on timestamps. */
  wallClock: boolean
  /**
   * The highest start, ms after a slot, of a recent read that came too early for that slot's block
   * (it sinks by 1/4096 step per read, so a node that got faster is followed).
   */
  loMs: number
  /** When, ms after the next slot, the next read starts: at least a margin above loMs, the envelope of arrivals. */
  hiMs: number
  /** Midpoint of the read that found `head`, ms since the epoch; 0 when unknown (the first read). */
  foundAt: number
  /**
   * The drift's base: a block number and its found offset, ms (the found read's midpoint minus the
   * block's timestamp; a point on the fitted line once the base has moved). driftMs is the slope
   * from it to the newest head's found offset.
   */
  baseHead: number
  baseOffsetMs: number
  /** When the last read and the one before it started, ms since the epoch (0: none). The read ceiling needs both. */
  lastStartedAt: number
  previousStartedAt: number
  /** Reads in a row that found no new head (they back off: growing gaps). */
  misses: number
  /**
   * How often the chain's timestamp gaps differ from its step by more than an eighth (an average
   * over the last ~8 blocks, 0 to 1). Past IRREGULAR_LIMIT the chain has no step to time reads on.
   */
  irregular: number
  /**
   * The chain's wall-clock pace, learned from bracketed arrivals only: a block found by a read right
   * after one that came too early for it reached the node between the early read's start and the
   * finding read's end. `brackets` are the last of those, `[head, after, before]` (ms since the
   * epoch); `paceMs` is the wall time per block that fits all of them (0: not known yet), and
   * `paceErrMs` half the range of paces that do, ms.
   */
  brackets: [number, number, number][]
  paceMs: number
  paceErrMs: number
}

/** The same window with amounts as bigint wei, for the math. */
export type FeeData = {
  baseFees: bigint[]
  nextBaseFee: bigint
  gasUsedRatio: number[]
  rewardPercentiles: number[]
  rewards: bigint[][]
  blockIntervalMs: number
}

export type Urgency = 'low' | 'medium' | 'high'

/** One urgency level's suggestion, in wei and milliseconds. */
export type LevelEstimate = {
  maxPriorityFeePerGas: bigint
  maxFeePerGas: bigint
  minWaitTimeMs: number
  maxWaitTimeMs: number
}
