// npm run blob-reserve-window -- --blobs <blob window.csv[.gz]> --base-fees <base-fee window.csv[.gz]> --out <file.csv>
/**
 * Writes a blob window whose execution base fee is known (./backtest/blob-reserve.ts: real blob demand, a real
 * base-fee path, the excess recomputed by the protocol), with the columns `npm run backtest` reads as a blob
 * window: block_number, timestamp, blob_count, excess_blob_gas, basefee_wei.
 */
import { writeFileSync } from 'node:fs'
import { InputFileError, loadBaseFeeCsv, loadBlobCsv } from './backtest/datasets'
import { withBaseFeePath } from './backtest/blob-reserve'
import { parseCommandLine, usageExit } from './cli/cli-args'

const usage = 'usage: npm run blob-reserve-window -- --blobs <blob window.csv[.gz]> --base-fees <base-fee window.csv[.gz]> --out <file.csv>'
const { values } = parseCommandLine(usage, { blobs: { type: 'string' }, 'base-fees': { type: 'string' }, out: { type: 'string' } })
if (!values.blobs || !values['base-fees'] || !values.out) usageExit(usage)
let w
try {
  w = withBaseFeePath(loadBlobCsv(values.blobs), loadBaseFeeCsv(values['base-fees']).baseFees)
} catch (err) {
  // an InputFileError names its file and what is wrong with it: one line, exit code 1
  if (!(err instanceof InputFileError)) throw err
  console.error(`blob-reserve-window: ${err.message}`)
  process.exit(1)
}
const lines = ['block_number,timestamp,blob_count,excess_blob_gas,basefee_wei']
for (let i = 0; i < w.numbers.length; i++)
  lines.push(`${w.numbers[i]},${w.timestamps[i]},${w.blobCounts[i]},${w.excess[i]},${w.baseFees![i]}`)
writeFileSync(values.out, lines.join('\n') + '\n')
console.log(`wrote ${values.out}: ${w.numbers.length} blocks`)
