/**
 * A CSV blob window: the input of the blob forecast's backtest. Pure: the caller reads (and gunzips) the file.
 * A header line names the columns, in any order (others are ignored):
 * - `block_number`; `timestamp_ms` (unix ms) or `timestamp` (unix seconds);
 * - `blob_count`, or `blob_gas_used` (÷ GAS_PER_BLOB);
 * - `excess_blob_gas`;
 * - optionally the execution base fee, `basefee_wei` or `base_fee_per_gas` (EIP-7918's reserve price).
 * Rows must be consecutive blocks in order (the shared windows are); a gap ends the file's use with an error.
 */
import { GAS_PER_BLOB } from '../../lib/core/chain-rules/blob-schedule'
import { BaseFeeCsvError } from './base-fee-csv'

export type BlobWindow = {
  numbers: number[]
  /** unix seconds per block */
  timestamps: number[]
  blobCounts: number[]
  excess: bigint[]
  /** Execution base fee per block, wei; null where the file has none. */
  baseFees: bigint[] | null
  /** Mean gap between consecutive blocks' timestamps, ms. */
  intervalMs: number
}

/** Whether a CSV header names the blob columns (then the file is read as a blob window). */
export function isBlobHeader(header: string): boolean {
  const names = header
    .toLowerCase()
    .split(',')
    .map((c) => c.trim().replace(/^"|"$/g, ''))
  return names.includes('excess_blob_gas') && (names.includes('blob_count') || names.includes('blob_gas_used'))
}

/** Reads a CSV blob window (see the module comment). @throws BaseFeeCsvError naming the column or line at fault */
export function readBlobCsv(text: string): BlobWindow {
  const lines = text.split(/\r?\n/).filter((l) => l.trim() !== '')
  const header = (lines[0] ?? '')
    .toLowerCase()
    .split(',')
    .map((c) => c.trim().replace(/^"|"$/g, ''))
  const col = (...names: string[]) => names.map((n) => header.indexOf(n)).find((i) => i >= 0) ?? -1
  const number = col('block_number', 'number')
  const tsMs = col('timestamp_ms')
  const ts = col('timestamp')
  const count = col('blob_count')
  const used = col('blob_gas_used')
  const excess = col('excess_blob_gas')
  const base = col('basefee_wei', 'base_fee_per_gas')
  if (number < 0) throw new BaseFeeCsvError('no block_number column')
  if (tsMs < 0 && ts < 0) throw new BaseFeeCsvError('no timestamp_ms or timestamp column')
  if (count < 0 && used < 0) throw new BaseFeeCsvError('no blob_count or blob_gas_used column')
  if (excess < 0) throw new BaseFeeCsvError('no excess_blob_gas column')
  const w: BlobWindow = { numbers: [], timestamps: [], blobCounts: [], excess: [], baseFees: base >= 0 ? [] : null, intervalMs: 12_000 }
  for (let i = 1; i < lines.length; i++) {
    const c = lines[i]!.split(',')
    const cell = (k: number, name: string) => {
      const v = c[k]?.trim() ?? ''
      if (!/^\d+$/.test(v)) throw new BaseFeeCsvError(`${name} ${JSON.stringify(v.slice(0, 40))} is not a decimal integer`, i + 1)
      return v
    }
    const n = Number(cell(number, 'block_number'))
    if (w.numbers.length > 0 && n !== w.numbers.at(-1)! + 1)
      throw new BaseFeeCsvError(`block ${n} does not follow ${w.numbers.at(-1)}`, i + 1)
    w.numbers.push(n)
    w.timestamps.push(tsMs >= 0 ? Math.floor(Number(cell(tsMs, 'timestamp_ms')) / 1000) : Number(cell(ts, 'timestamp')))
    w.blobCounts.push(count >= 0 ? Number(cell(count, 'blob_count')) : Number(BigInt(cell(used, 'blob_gas_used')) / GAS_PER_BLOB))
    w.excess.push(BigInt(cell(excess, 'excess_blob_gas')))
    if (w.baseFees) w.baseFees.push(BigInt(cell(base, 'base fee')))
  }
  if (w.numbers.length < 2) throw new BaseFeeCsvError('fewer than two blocks')
  w.intervalMs = Math.round(((w.timestamps.at(-1)! - w.timestamps[0]!) * 1000) / (w.numbers.length - 1))
  return w
}
