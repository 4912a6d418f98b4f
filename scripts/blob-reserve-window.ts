// npm run blob-reserve-window -- --blobs <blob window.csv[.gz]> --base-fees <base-fee window.csv[.gz]> --out <file.csv>
/**
 * Writes a blob window whose execution base fee is known (./backtest/blob-reserve.ts: real blob demand, a real
 * base-fee path, the excess recomputed by the protocol), with the columns `npm run backtest` reads as a blob
 * window: block_number, timestamp, blob_count, excess_blob_gas, basefee_wei.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { parseArgs } from 'node:util'
import { gunzipSync } from 'node:zlib'
import { readBaseFeeCsv } from './backtest/base-fee-csv'
import { readBlobCsv } from './backtest/blob-csv'
import { withBaseFeePath } from './backtest/blob-reserve'

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
const w = withBaseFeePath(readBlobCsv(text(values.blobs)), readBaseFeeCsv(text(values['base-fees'])).baseFees)
const lines = ['block_number,timestamp,blob_count,excess_blob_gas,basefee_wei']
for (let i = 0; i < w.numbers.length; i++)
  lines.push(`${w.numbers[i]},${w.timestamps[i]},${w.blobCounts[i]},${w.excess[i]},${w.baseFees![i]}`)
writeFileSync(values.out, lines.join('\n') + '\n')
console.log(`wrote ${values.out}: ${w.numbers.length} blocks`)
