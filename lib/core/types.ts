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
  /** The head block's own base fee (decimal wei), from its header (Sonic's eth_feeHistory reports another number). */
  headBaseFeePerGas?: string
  /** How many transactions the head block holds (from the header read's transaction hashes). */
  headTransactionCount?: number
  /** The L1 fee parameters the chain's predeploys reported, all at headNumber (OP-stack, Arbitrum, Scroll, Mantle). */
  l1Fee?: L1FeeParams
  /** Linea's pricing from the head's extraData v1 (parseLineaExtraData), where the data cost rides in the priority fee. */
  lineaPricing?: LineaPricing
  /** What the chain's rules read beside the window, in the same batch (chainReadsOf), on those chains only. */
  chainReads?: ChainReads
  /**
   * No EIP-1559 fee market: eth_feeHistory's rewards are whole gas prices (go-ethereum feehistory.go processBlock);
   * only GET gasPrices answers from such a window.
   */
  legacy?: true
  /**
   * On a flashblocks chain, the block under construction as the node's `pending` block shows it (lib/feed
   * piece-tracker.ts), laid over the sealed window while it is current; absent on every other chain.
   */
  pending?: PendingPieces
  /** Which of the chain's RPC URLs it was read from (its index in the configured list; never the URL). */
  source?: number
  /** When the window was read from the node, ms since the epoch. */
  fetchedAt: number
}

/**
 * A flashblocks chain's block under construction (ethereum-optimism/specs protocol/flashblocks.md), JSON-plain:
 * how far its pieces got, and the tips that got into the newest piece seen. Gas and tips in wei (decimal strings).
 */
export type PendingPieces = {
  /** The block being built: the sealed head + 1. */
  blockNumber: number
  /** The piece the pending block has reached: 0 holds the system transactions only, user pieces are 1…pieces. */
  piece: number
  /** Pieces per block: the block interval over the measured cadence. */
  pieces: number
  /** The time from one piece to the next, ms: measured, or the chain's published one near it (piecesPerBlock). */
  cadenceMs: number
  gasLimit: string
  /** Gas used so far by the block's committed pieces. */
  gasUsed: string
  /** The user transactions that came with the newest piece seen: effective tip and declared gas limit, tips ascending. */
  newest: { tip: string; gas: string }[]
  /** When the node's pending block was read, ms since the epoch. */
  readAt: number
  /**
   * What each recent piece followed demanded of a newcomer's tip (wei, oldest first, this piece's last; 0: it had room),
   * leaving out states without user transactions (a block's first piece), which no newcomer could enter.
   */
  recentDemands?: string[]
  /**
   * What the recent full pieces demanded (wei, oldest first, at most CROWDED_DEMAND_PIECES), of the states the feed
   * followed in the last 600 pieces (two minutes of Base's), gaps and calm pieces left out: what the recent bursts demanded.
   */
  crowdedDemands?: string[]
}

/** A state of the pending block as the feed read it, and the last read that still found it (the pieces after it had room). */
export type SeenPiece = { view: PendingPieces; lastReadAt: number }

/**
 * Which L1 fee a chain charges, so what the window's read takes with the head: the predeploys it asks (OP-stack,
 * Arbitrum, Scroll, Mantle) or, for `linea`, no call at all but the head block's extraData (the data cost is
 * priced into the priority fee, not charged beside gas).
 */
export type L1FeeRule = 'op-stack' | 'arbitrum' | 'scroll' | 'mantle' | 'linea'

/**
 * Linea's pricing at a block, wei (decimal strings), from its extraData v1 (linea-monorepo linea-besu
 * plugins/linea-sequencer LineaExtraDataHandler): the fixed cost per gas, the variable cost per compressed
 * byte, and the node's minimum gas price.
 */
export type LineaPricing = { fixedCostWei: string; variableCostWei: string; ethGasPriceWei: string }

/**
 * The L1 fee parameters of an L2's head (amounts in wei, decimal strings): OP-stack GasPriceOracle's Fjord inputs
 * and L1Block's operator fee, Arbitrum ArbGasInfo.getPricesInWei(), Scroll's L1GasPriceOracle after Galileo,
 * Mantle's Fjord inputs with its tokenRatio and operator fee after Arsia, or `unavailable` (the predeploys did
 * not answer, or the chain is before the fork the rule needs: served without it).
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
  | {
      rule: 'arbitrum'
      perL1CalldataByte: string
      /** ArbGasInfo.getMinimumGasPrice(), wei: no max fee below it (absent: the getter did not answer). */
      minimumGasPrice?: string
      /** ArbOwnerPublic.getCollectTips() (ArbOS 60 and later; absent or false: tips are not paid). */
      collectTips?: boolean
    }
  | {
      /** scroll-tech/scroll-contracts src/L2/predeploys/L1GasPriceOracle.sol, with isGalileo() true. */
      rule: 'scroll'
      l1BaseFee: string
      l1BlobBaseFee: string
      /** The exec scalar since Feynman, scaled by 1e9. */
      commitScalar: string
      /** Scaled by 1e9. */
      blobScalar: string
      penaltyFactor: string
    }
  | {
      /** mantlenetworkio/mantle-v2 contracts-bedrock src/L2/GasPriceOracle.sol, with isArsia() true. */
      rule: 'mantle'
      l1BaseFee: string
      blobBaseFee: string
      baseFeeScalar: number
      blobBaseFeeScalar: number
      /** MNT wei per ETH wei of the L1 fee (GasPriceOracle.tokenRatio()). */
      tokenRatio: string
      operatorFeeScalar: number
      operatorFeeConstant: string
    }
  | { rule: 'unavailable'; reason: string }

/** Values a chain's rules read with its window, wei (decimal strings): each only where the node answered. */
export type ChainReads = {
  /** eth_gasPrice (Sei: the lowest max fee its ante takes). */
  gasPrice?: string
  /** eth_bigBlockGasPrice (HyperEVM: the base fee of the next big block). */
  bigBlockGasPrice?: string
}

/** The same window with amounts as bigint wei, for the math. */
export type FeeData = {
  baseFees: bigint[]
  nextBaseFee: bigint
  gasUsedRatio: number[]
  rewardPercentiles: number[]
  rewards: bigint[][]
  blockIntervalMs: number
  /** The block under construction on a flashblocks chain (FeeWindow.pending). */
  pending?: PendingPieces
}

export type Urgency = 'low' | 'medium' | 'high'

/** One urgency level's suggestion, in wei and milliseconds. */
export type LevelEstimate = {
  maxPriorityFeePerGas: bigint
  maxFeePerGas: bigint
  minWaitTimeMs: number
  maxWaitTimeMs: number
}
