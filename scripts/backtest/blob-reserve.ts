/**
 * A blob window whose execution base fee is known, for judging the blob forecast where EIP-7918's reserve price
 * binds (the shared blob windows carry no base fee). Real parts, joined: the blob counts, timestamps and first
 * excess of a blob window, and the base fee path of a base-fee window scaled so that its first base fee ÷ 16
 * equals the blob window's first blob base fee (the reserve meets the market where it starts). The excess blob
 * gas of every later block is recomputed by the protocol (calcExcessBlobGas with each parent's base fee), so the
 * result is a chain the protocol could have made, not a record. Length: the shorter of the two. Pure.
 */
import { BLOB_SCHEDULES, blobForkAt, GAS_PER_BLOB, type BlobSchedule } from '../../lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt } from '../../lib/core/fee-math/blob-price'
import { calcExcessBlobGas } from '../../lib/core/fee-math/blob-forecast'
import type { BlobWindow } from './blob-csv'

export function withBaseFeePath(blobs: BlobWindow, baseFees: readonly bigint[], schedule: BlobSchedule = BLOB_SCHEDULES[1]!): BlobWindow {
  const n = Math.min(blobs.numbers.length, baseFees.length)
  const fork = (i: number) => blobForkAt(schedule, blobs.timestamps[i]!)!
  const firstFee = blobBaseFeeAt(blobs.excess[0]!, fork(0).params.updateFraction)
  // base fee i = recorded base fee i × 16 × first blob base fee ÷ first recorded base fee
  const scaled = baseFees.slice(0, n).map((b) => (b * 16n * firstFee) / baseFees[0]!)
  const excess = [blobs.excess[0]!]
  for (let i = 1; i < n; i++)
    excess.push(calcExcessBlobGas(fork(i), excess[i - 1]!, BigInt(blobs.blobCounts[i - 1]!) * GAS_PER_BLOB, scaled[i - 1]!))
  const timestamps = blobs.timestamps.slice(0, n)
  return {
    numbers: blobs.numbers.slice(0, n),
    timestamps,
    blobCounts: blobs.blobCounts.slice(0, n),
    excess,
    baseFees: scaled,
    intervalMs: Math.round(((timestamps.at(-1)! - timestamps[0]!) * 1000) / (n - 1)),
  }
}
