/**
 * Recorded block windows: the backtest's input. One format (JSON lines, `gas-api-blocks/1`): a
 * header line, then one block per line, amounts as decimal wei strings. Readers for the shared
 * datasets turn each into the same shape. Pure: callers read the files.
 */

/** What a window knows about tips: every transaction's, only eth_feeHistory percentiles, or none. */
export type TipData = 'full' | 'percentiles' | 'none'

export type RecordedTx = {
  /** Effective priority fee paid, wei: min(maxPriorityFeePerGas, maxFeePerGas − baseFee), or gasPrice − baseFee. */
  tip: string
  /** Gas used (receipts), or 1 when the source only lists transactions (count-weighted percentiles). */
  gas: number
}

export type RecordedBlock = {
  number: number
  /** unix seconds; absent when the source has none */
  timestamp?: number
  /** wei */
  baseFeePerGas: string
  gasUsed: number
  gasLimit: number
  /** Every included transaction (tipData 'full'). */
  txs?: RecordedTx[]
  /** eth_feeHistory reward percentiles (tipData 'percentiles'): values in wei, one per header.percentiles entry. */
  rewards?: string[]
}

export type RecordingHeader = {
  format: 'gas-api-blocks/1'
  chainId: number
  source: string
  tipData: TipData
  /** Percentiles of `rewards` (tipData 'percentiles'). */
  percentiles?: number[]
  /** Block interval to use when blocks carry no timestamps, ms (documented per dataset). */
  nominalBlockIntervalMs?: number
}

export type Recording = { header: RecordingHeader; blocks: RecordedBlock[] }

export function toJsonLines(rec: Recording): string {
  return [JSON.stringify(rec.header), ...rec.blocks.map((b) => JSON.stringify(b))].join('\n') + '\n'
}

/** @throws Error naming the line that is not JSON, or saying the first is not a gas-api-blocks/1 header */
export function fromJsonLines(text: string): Recording {
  const lines = text
    .split('\n')
    .map((l, i) => ({ l, line: i + 1 }))
    .filter(({ l }) => l.trim().length > 0)
  const parse = ({ l, line }: { l: string; line: number }): unknown => {
    try {
      return JSON.parse(l)
    } catch (err) {
      throw new Error(`line ${line} is not JSON (${(err as Error).message})`, { cause: err })
    }
  }
  const [first, ...rest] = lines
  if (first === undefined) throw new Error('empty recording')
  let header: RecordingHeader | null
  try {
    header = parse(first) as RecordingHeader | null
  } catch (err) {
    throw new Error(`not a gas-api-blocks/1 recording: ${(err as Error).message}`, { cause: err })
  }
  if (header?.format !== 'gas-api-blocks/1') throw new Error(`not a gas-api-blocks/1 recording: ${first.l.slice(0, 80)}`)
  const blocks = rest.map((l) => parse(l) as RecordedBlock)
  return { header, blocks: sortBlocks(blocks) }
}

function sortBlocks(blocks: RecordedBlock[]): RecordedBlock[] {
  const sorted = [...blocks].sort((a, b) => a.number - b.number)
  for (const [i, b] of sorted.entries()) {
    const prev = sorted[i - 1]
    if (prev && b.number !== prev.number + 1) throw new Error(`blocks are not consecutive at ${prev.number}→${b.number}`)
  }
  return sorted
}

/** A CSV row: a line's cells by column name (undefined where the line has fewer cells than the header). */
export type CsvRow = Record<string, string | undefined>

/** Minimal CSV reader (no quoted commas in the columns read). */
export function parseCsv(text: string): CsvRow[] {
  const [head, ...lines] = text.split(/\r?\n/).filter((l) => l.length > 0)
  if (head === undefined) throw new Error('CSV without a header line')
  const cols = head.split(',')
  return lines.map((line) => {
    const cells = line.split(',')
    return Object.fromEntries(cols.map((c, i) => [c, cells[i]]))
  })
}

/** A row's cell in `column`, for a value that cannot be parsed without it. */
export function csvCell(row: CsvRow, column: string): string {
  const value = row[column]
  if (value === undefined) throw new Error(`CSV row without a ${column} cell`)
  return value
}

/** ethereum-etl export_blocks CSV (number, timestamp, gas_used, gas_limit, base_fee_per_gas): no tips. */
export function readEthEtlBlocks(csv: string, chainId = 1, source = 'ethereum-etl blocks.csv'): Recording {
  const blocks = parseCsv(csv).map((r) => ({
    number: Number(r.number),
    timestamp: Number(r.timestamp),
    baseFeePerGas: BigInt(csvCell(r, 'base_fee_per_gas')).toString(),
    gasUsed: Number(r.gas_used),
    gasLimit: Number(r.gas_limit),
  }))
  return { header: { format: 'gas-api-blocks/1', chainId, source, tipData: 'none' }, blocks: sortBlocks(blocks) }
}

/**
 * blockData.csv + transactionData.csv (camcos): every transaction's effective gasPrice, so tip =
 * gasPrice − baseFee. No per-transaction gasUsed: percentiles are count-weighted (gas 1). No
 * timestamps: post-Merge 12 s slots.
 */
export function readBlocksWithTransactions(
  blockCsv: string,
  txCsv: string,
  chainId = 1,
  source = 'camcos blockData+transactionData',
): Recording {
  const prices = new Map<number, bigint[]>()
  for (const tx of parseCsv(txCsv)) {
    const n = Number(tx.blockNumber)
    const list = prices.get(n) ?? []
    list.push(BigInt(csvCell(tx, 'gasPrice')))
    prices.set(n, list)
  }
  const blocks = parseCsv(blockCsv).map((r) => {
    const number = Number(r.blockNumber)
    const base = BigInt(csvCell(r, 'baseFeePerGas'))
    return {
      number,
      baseFeePerGas: base.toString(),
      gasUsed: Number(r.gasUsed),
      gasLimit: Number(r.gasLimit),
      txs: (prices.get(number) ?? []).map((p) => ({ tip: (p > base ? p - base : 0n).toString(), gas: 1 })),
    }
  })
  return {
    header: { format: 'gas-api-blocks/1', chainId, source, tipData: 'full', nominalBlockIntervalMs: 12_000 },
    blocks: sortBlocks(blocks),
  }
}

type FeeHistoryResult = { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[]; reward?: string[][] }

/**
 * A raw eth_feeHistory result (Polygon's 1,024 blocks; the erigon fixtures). Gas used is known only
 * as a ratio (gasLimit is set to 1,000,000 to carry it); rewards only at the requested percentiles.
 */
export function readFeeHistory(
  result: FeeHistoryResult,
  percentiles: number[],
  opts: { chainId: number; source: string; nominalBlockIntervalMs?: number },
): Recording {
  const oldest = Number(result.oldestBlock)
  const rewardRows = percentiles.length ? result.reward : undefined
  const blocks = result.gasUsedRatio.map((ratio, i) => {
    const baseFee = result.baseFeePerGas[i]
    const rewards = rewardRows?.[i]
    if (baseFee === undefined || (rewardRows && !rewards))
      throw new Error(`eth_feeHistory has fewer entries than gasUsedRatio (block ${oldest + i})`)
    return {
      number: oldest + i,
      baseFeePerGas: BigInt(baseFee).toString(),
      gasUsed: Math.round(ratio * 1_000_000),
      gasLimit: 1_000_000,
      ...(rewards ? { rewards: rewards.map((h) => BigInt(h).toString()) } : {}),
    }
  })
  const tipData: TipData = result.reward && percentiles.length ? 'percentiles' : 'none'
  return {
    header: {
      format: 'gas-api-blocks/1',
      chainId: opts.chainId,
      source: opts.source,
      tipData,
      ...(tipData === 'percentiles' ? { percentiles } : {}),
      nominalBlockIntervalMs: opts.nominalBlockIntervalMs,
    },
    blocks: sortBlocks(blocks),
  }
}

type RpcTx = { hash: string; type?: string; gasPrice?: string; maxFeePerGas?: string; maxPriorityFeePerGas?: string; gas: string }
type RpcBlock = { number: string; timestamp: string; baseFeePerGas?: string; gasUsed: string; gasLimit: string; transactions: RpcTx[] }
type RpcReceipt = { transactionHash: string; gasUsed: string; effectiveGasPrice: string }

/** Effective tip of a transaction in a block with this base fee (wei). */
function effectiveTip(tx: RpcTx, baseFee: bigint): bigint {
  if (tx.maxFeePerGas !== undefined && tx.maxPriorityFeePerGas !== undefined) {
    const cap = BigInt(tx.maxFeePerGas) - baseFee
    const prio = BigInt(tx.maxPriorityFeePerGas)
    return cap < prio ? (cap > 0n ? cap : 0n) : prio
  }
  const price = BigInt(tx.gasPrice ?? '0x0') - baseFee
  return price > 0n ? price : 0n
}

/**
 * A full block (eth_getBlockByNumber with transactions) and, when available, its receipts: the tip
 * from the receipt's effectiveGasPrice and its gasUsed; without receipts the tip from the
 * transaction's fields and its gas limit.
 */
export function recordBlock(block: RpcBlock, receipts?: RpcReceipt[]): RecordedBlock {
  const base = BigInt(block.baseFeePerGas ?? '0x0')
  const byHash = new Map((receipts ?? []).map((r) => [r.transactionHash, r]))
  return {
    number: Number(block.number),
    timestamp: Number(block.timestamp),
    baseFeePerGas: base.toString(),
    gasUsed: Number(block.gasUsed),
    gasLimit: Number(block.gasLimit),
    txs: block.transactions.map((tx) => {
      const receipt = byHash.get(tx.hash)
      if (receipt) {
        const tip = BigInt(receipt.effectiveGasPrice) - base
        return { tip: (tip > 0n ? tip : 0n).toString(), gas: Number(receipt.gasUsed) }
      }
      return { tip: effectiveTip(tx, base).toString(), gas: Number(tx.gas) }
    }),
  }
}
