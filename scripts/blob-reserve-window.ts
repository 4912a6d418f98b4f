// npm run blob-reserve-window -- --blobs <blob window.csv[.gz]> --base-fees <base-fee window.csv[.gz]> --out <file.csv>
/**
 * A blob window whose execution base fee is known, for judging the blob forecast where EIP-7918's reserve price
 * binds (the shared blob windows carry no base fee). Real parts, joined: the blob counts, timestamps and first
 * excess of a blob window, and the base fee path of a base-fee window scaled so that its first base fee ÷ 16
 * equals the blob window's first blob base fee (the reserve meets the market where it starts). The excess
 * blob gas of every later block is recomputed by the protocol (calcExcessBlobGas with each block's base fee),
 * so the window is a chain the protocol could have made, not a record. Length: the shorter of the two.
 * The output has the columns the backtest reads: block_number, timestamp, blob_count, excess_blob_gas, basefee_wei.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { BLOB_SCHEDULES, blobForkAt, GAS_PER_BLOB } from '../lib/core/chain-rules/blob-schedule'
import { blobBaseFeeAt } from '../lib/core/fee-math/blob-price'
import { calcExcessBlobGas } from '../lib/core/fee-math/blob-forecast'
import { readBaseFeeCsv } from './backtest/base-fee-csv'
import { readBlobCsv } from './backtest/blob-csv'

const { values } = parseArgs({ options: { blobs: { type: 'string' }, 'base-fees': { type: 'string' }, out: { type: 'string' } } })
if (!values.blobs || !values['base-fees'] || !values.out) {
  console.error(
    'usage: npm run blob-reserve-window -- --blobs <blob window.csv[.gz]> --base-fees <base-fee window.csv[.gz]> --out <file.csv>',
  )
  process.exit(2)
}
const text = (path: string) => {
  const raw = readFileSync(path)
  return (path.endsWith('.gz') ? gunzipSync(raw) : raw).toString('utf8')
}
const blobs = readBlobCsv(text(values.blobs))
const base = readBaseFeeCsv(text(values['base-fees']))
const schedule = BLOB_SCHEDULES[1]!
const n = Math.min(blobs.numbers.length, base.baseFees.length)
const fork = (i: number) => blobForkAt(schedule, blobs.timestamps[i]!)!
const firstFee = blobBaseFeeAt(blobs.excess[0]!, fork(0).params.updateFraction)
// base fee i = recorded base fee i × 16 × first blob base fee ÷ first recorded base fee
const scale = (b: bigint) => (b * 16n * firstFee) / base.baseFees[0]!
const lines = ['block_number,timestamp,blob_count,excess_blob_gas,basefee_wei']
let excess = blobs.excess[0]!
for (let i = 0; i < n; i++) {
  if (i > 0) excess = calcExcessBlobGas(fork(i), excess, BigInt(blobs.blobCounts[i - 1]!) * GAS_PER_BLOB, scale(base.baseFees[i - 1]!))
  lines.push(`${blobs.numbers[i]},${blobs.timestamps[i]},${blobs.blobCounts[i]},${excess},${scale(base.baseFees[i]!)}`)
}
writeFileSync(values.out, lines.join('\n') + '\n')
console.log(`wrote ${values.out}: ${n} blocks, base fee scaled by 16 × ${firstFee} ÷ ${base.baseFees[0]}`)
