/** A chain's fee window as read from the node: JSON-plain (decimal wei strings), so it can live in `unstable_cache`. */
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
  /** Per block, the effective priority fee (wei) at each of rewardPercentiles; an empty row: no tip data. */
  reward: string[][]
  /** Blob base fee of each block of the window, wei (decimal string), oldest first. */
  baseFeePerBlobGas?: string[]
  /** Blob base fee of the NEXT block as the node reports it (last entry of eth_feeHistory.baseFeePerBlobGas), wei. */
  nextBaseFeePerBlobGas?: string
  /** blobGasUsed / the block's maximum blob gas, for each block of the window (eth_feeHistory.blobGasUsedRatio). */
  blobGasUsedRatio?: number[]
  /** The head block's excess blob gas and blob gas used (decimal), where its header carries them (EIP-4844). */
  headExcessBlobGas?: string
  headBlobGasUsed?: string
  /** The head block's extraData (hex), where OP-stack chains carry their EIP-1559 parameters. */
  headExtraData?: string
  /** The head block's gas limit (decimal): no transaction on the chain can use more. */
  headGasLimit?: string
  /** How many transactions the head block holds (from the header read's transaction hashes). */
  headTransactionCount?: number
  /** What the chain's predeploys reported at the head for the L1 part of a transaction's cost (OP-stack, Arbitrum). */
  l1Fee?: L1FeeParams
  /**
   * No EIP-1559 fee market: eth_feeHistory's rewards are whole gas prices (go-ethereum feehistory.go processBlock);
   * only GET gasPrices answers from such a window.
   */
  legacy?: true
  /** When the window was read from the node, ms since the epoch. */
  fetchedAt: number
}

/** Which L1 fee a chain charges beside gas, so which predeploys the window's read asks. */
export type L1FeeRule = 'op-stack' | 'arbitrum'

/**
 * The L1 fee parameters of an L2's head: OP-stack GasPriceOracle's Fjord inputs and L1Block's operator fee,
 * Arbitrum ArbGasInfo.getPricesInWei(), or `unavailable` (the predeploys did not answer: served without it).
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
