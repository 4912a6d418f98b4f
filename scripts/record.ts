// npm run record -- --rpc <url | RPC_URL_<chainId>> --blocks N --out <file.jsonl>
import { writeFileSync } from 'node:fs'
import { toJsonLines } from './record/recording'
import { recordBlocks } from './record/record-blocks'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { describeRecordError } from './record/record-error'
import { resolveRpcArgument } from './record/rpc-argument'

const USAGE = 'usage: npm run record -- --rpc <url | name of an RPC_URL_<chainId> variable> --blocks N --out <file.jsonl>'
const { values } = parseCommandLine(USAGE, { rpc: { type: 'string' }, blocks: { type: 'string' }, out: { type: 'string' } })
const { rpc, out } = values
const count = Number(values.blocks ?? 500)
if (!rpc || !out || !Number.isInteger(count) || count < 1) usageExit(USAGE)
let url: string
try {
  url = resolveRpcArgument(rpc)
} catch (err) {
  usageExit(USAGE, (err as Error).message)
}
let recording
try {
  recording = await recordBlocks({ url, count, onProgress: (n) => process.stderr.write(`\r${n}/${count} blocks`) })
} catch (err) {
  // never the error itself: viem's errors print the URL, and provider URLs embed API keys
  console.error(`\nnpm run record: ${describeRecordError(err, url)}`)
  process.exit(1)
}
writeFileSync(out, toJsonLines(recording))
const txs = recording.blocks.reduce((s, b) => s + (b.txs?.length ?? 0), 0)
// the URL is not printed: provider URLs embed API keys
console.error(
  `\nwrote ${out}: chain ${recording.header.chainId}, ${recording.blocks.length} blocks, ${txs} transactions, tips: ${recording.header.tipData}`,
)
