import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { gunzipSync } from 'node:zlib'
import { readBaseFeeCsv, type BaseFeeCsvWindow, type Eip1559Rule } from './base-fee-csv'
import {
  fromJsonLines,
  readBlocksWithTransactions,
  readEthEtlBlocks,
  readFeeHistory,
  recordBlock,
  type Recording,
} from '../record/recording'

/** The recorded real data beside the checkout (../shared/data), never copied into the repo. */
import { isBlobHeader, readBlobCsv, type BlobWindow } from './blob-csv'

const DEFAULT_SHARED_DATA = join(process.cwd(), '..', 'shared', 'data')

/** A file the backtest cannot read: the message names the file and says why, on one line. */
export class InputFileError extends Error {
  override name = 'InputFileError'
  constructor(
    readonly file: string,
    reason: string,
    options?: { cause?: unknown },
  ) {
    super(`${file}: ${reason}`, options)
  }
}

/** Why reading or parsing failed, in a few words (the system's error codes spelled out). */
function reason(err: unknown): string {
  const e = err as NodeJS.ErrnoException
  if (e?.code === 'ENOENT') return 'no such file'
  if (e?.code === 'EISDIR') return 'is a directory, not a file'
  if (e?.code === 'EACCES') return 'permission denied'
  if (typeof e?.code === 'string' && e.code.startsWith('Z_')) return `not a gzip file (${e.message})`
  return e instanceof Error ? e.message.split('\n')[0]! : String(err)
}

/** Runs `read` on a file: any failure becomes an InputFileError naming it. */
function fromFile<T>(file: string, read: (file: string) => T): T {
  try {
    return read(file)
  } catch (err) {
    if (err instanceof InputFileError) throw err
    throw new InputFileError(file, reason(err), { cause: err })
  }
}

const text = (file: string) =>
  fromFile(file, () => {
    const raw = readFileSync(file)
    return (file.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')
  })
const json = (file: string) => fromFile(file, () => JSON.parse(text(file)))

/** Every dataset of shared/data as a Recording (see shared/data/README.md for their sources). */
export function loadSharedDatasets(root = DEFAULT_SHARED_DATA): { name: string; recording: Recording }[] {
  if (!existsSync(root)) throw new Error(`no shared data at ${root}`)
  const out: { name: string; recording: Recording }[] = []
  const d1 = join(root, 'eth-mainnet-blocks-15533942-15535581')
  out.push({
    name: 'mainnet-1640-blocks',
    recording: readEthEtlBlocks(text(join(d1, 'blocks.csv.gz')), 1, 'eth-mainnet-blocks-15533942-15535581'),
  })
  const d2 = join(root, 'eth-mainnet-100blocks-txs-15627832')
  out.push({
    name: 'mainnet-100-blocks-txs',
    recording: readBlocksWithTransactions(
      text(join(d2, 'blockData.csv.gz')),
      text(join(d2, 'transactionData.csv.gz')),
      1,
      'eth-mainnet-100blocks-txs-15627832',
    ),
  })
  const polygon = json(join(root, 'polygon-pos-feehistory-1024blk', 'fee_history.json'))
  out.push({
    name: 'polygon-1024-feehistory',
    recording: readFeeHistory(polygon.result, [50], {
      chainId: 137,
      source: 'polygon-pos-feehistory-1024blk',
      nominalBlockIntervalMs: 2_000,
    }),
  })
  out.push(...loadErigonFixtures(join(root, 'erigon-rpc-tests-fixtures', 'integration')))
  return out
}

const CHAIN_IDS: Record<string, { id: number; intervalMs: number }> = {
  mainnet: { id: 1, intervalMs: 12_000 },
  gnosis: { id: 100, intervalMs: 5_000 },
  'arb-sepolia': { id: 421614, intervalMs: 250 },
}

/** The erigon rpc-tests fixtures: each eth_feeHistory answer, and each full block (with its receipts when present). */
export function loadErigonFixtures(root: string): { name: string; recording: Recording }[] {
  const out: { name: string; recording: Recording }[] = []
  for (const network of readdirSync(root)) {
    const chain = CHAIN_IDS[network] ?? { id: 0, intervalMs: 12_000 }
    const dir = (m: string) => join(root, network, m)
    const receipts = new Map<string, unknown[]>()
    if (existsSync(dir('eth_getBlockReceipts'))) {
      for (const f of readdirSync(dir('eth_getBlockReceipts'))) {
        const [{ request, response }] = json(join(dir('eth_getBlockReceipts'), f))
        if (Array.isArray(response?.result)) receipts.set(String(request.params[0]).toLowerCase(), response.result)
      }
    }
    if (existsSync(dir('eth_feeHistory'))) {
      for (const f of readdirSync(dir('eth_feeHistory')).sort()) {
        const [{ request, response }] = json(join(dir('eth_feeHistory'), f))
        if (!response?.result?.gasUsedRatio?.length) continue // fixtures without a fixed result
        const name = `erigon-${network}-feehistory-${f.replace('.json', '')}`
        out.push({
          name,
          recording: readFeeHistory(response.result, request.params[2] ?? [], {
            chainId: chain.id,
            source: name,
            nominalBlockIntervalMs: chain.intervalMs,
          }),
        })
      }
    }
    if (existsSync(dir('eth_getBlockByNumber'))) {
      for (const f of readdirSync(dir('eth_getBlockByNumber')).sort()) {
        const [{ response }] = json(join(dir('eth_getBlockByNumber'), f))
        const block = response?.result
        if (!block?.baseFeePerGas || !Array.isArray(block.transactions) || typeof block.transactions[0] === 'string') continue
        const name = `erigon-${network}-block-${Number(block.number)}`
        const rs = receipts.get(String(block.number).toLowerCase()) as Parameters<typeof recordBlock>[1]
        out.push({
          name,
          recording: {
            header: {
              format: 'gas-api-blocks/1',
              chainId: chain.id,
              source: name,
              tipData: 'full',
              nominalBlockIntervalMs: chain.intervalMs,
            },
            blocks: [recordBlock(block, rs)],
          },
        })
      }
    }
  }
  return out
}

/**
 * A recording file: JSON lines (gas-api-blocks/1), optionally gzipped.
 * @throws InputFileError naming the file: missing, not gzip, a line that is not JSON, not a recording
 */
export function loadRecording(file: string): Recording {
  return fromFile(file, () => fromJsonLines(text(file)))
}

/**
 * A CSV base-fee window (./base-fee-csv.ts), optionally gzipped. `rule`: the chain's EIP-1559 rule for
 * the gas used a file without gas columns implies (null: none).
 * @throws InputFileError naming the file: missing, not gzip, a missing column, a bad cell and its line
 */
export function loadBaseFeeCsv(file: string, rule?: Eip1559Rule | null): BaseFeeCsvWindow {
  return fromFile(file, () => readBaseFeeCsv(text(file), { rule }))
}

/** Whether a CSV file is a blob window (its header names excess_blob_gas and blob_count or blob_gas_used). */
export function isBlobCsvFile(file: string): boolean {
  return fromFile(file, () => isBlobHeader(text(file).slice(0, 1_000).split(/\r?\n/)[0] ?? ''))
}

/** Reads a CSV blob window (./blob-csv.ts). */
export function loadBlobCsv(file: string): BlobWindow {
  return fromFile(file, () => readBlobCsv(text(file)))
}

/** Whether a file is read as a CSV base-fee window (by its name: .csv or .csv.gz). */
export const isCsvFile = (file: string) => /\.csv(?:\.gz)?$/i.test(file)

/** A base-fee window of shared/data, for the forecast's backtest. */
export type SharedBaseFeeWindow = { name: string; file: string; chainId: number; window: BaseFeeCsvWindow }

/**
 * The real base-fee windows of shared/data: the two mainnet spike windows (base fees only; gas used
 * from the next base fee) and the 1,640 mainnet blocks of ethereum-etl (gas columns), read as CSV
 * windows, and Polygon PoS's 1,024 blocks of eth_feeHistory (its interval the nominal 2 s: no timestamps).
 */
export function loadSharedBaseFeeWindows(root = DEFAULT_SHARED_DATA): SharedBaseFeeWindow[] {
  if (!existsSync(root)) throw new Error(`no shared data at ${root}`)
  const spikes = join(root, 'eth-mainnet-basefee-spikes-2022-2023')
  const mainnet: SharedBaseFeeWindow[] = [
    { name: 'mainnet-spike-july-2022', file: join(spikes, 'real_july_2022_spike_data.csv.gz') },
    { name: 'mainnet-spike-may-2023', file: join(spikes, 'may_2023_pepe_crisis_data.csv.gz') },
    { name: 'mainnet-1640-blocks', file: join(root, 'eth-mainnet-blocks-15533942-15535581', 'blocks.csv.gz') },
  ].map((w) => ({ ...w, chainId: 1, window: loadBaseFeeCsv(w.file) }))
  // Polygon PoS: eth_feeHistory's 1,024 blocks and the next one's base fee (its last entry), ~2 s blocks
  const polygonFile = join(root, 'polygon-pos-feehistory-1024blk', 'fee_history.json')
  const fh = json(polygonFile).result as { oldestBlock: string; baseFeePerGas: string[]; gasUsedRatio: number[] }
  const oldest = Number(fh.oldestBlock)
  const polygon: BaseFeeCsvWindow = {
    numbers: fh.baseFeePerGas.map((_, i) => oldest + i),
    baseFees: fh.baseFeePerGas.map((b) => BigInt(b)),
    intervalMs: 2_000,
    timestamps: null,
    intervalSource: 'default',
    gasUsedRatio: fh.baseFeePerGas.map((_, i) => fh.gasUsedRatio[i] ?? null),
    gasUsedSource: 'columns',
  }
  return [...mainnet, { name: 'polygon-1024-feehistory', file: polygonFile, chainId: 137, window: polygon }]
}
