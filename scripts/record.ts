// npm run record -- --rpc <url> --blocks N --out <file.jsonl>
import { writeFileSync } from 'node:fs'
import { toJsonLines } from './record/recording'
import { recordBlocks } from './record/record-blocks'
import { takeOption } from './cli-args'

const args = process.argv.slice(2)
const opt = (name: string) => takeOption(args, name)
const rpc = opt('--rpc')
const count = Number(opt('--blocks') ?? 500)
const out = opt('--out')
if (!rpc || !out || !Number.isInteger(count) || count < 1) {
  console.error('usage: npm run record -- --rpc <url> --blocks N --out <file.jsonl>')
  process.exit(2)
}
const recording = await recordBlocks({ url: rpc, count, onProgress: (n) => process.stderr.write(`\r${n}/${count} blocks`) })
writeFileSync(out, toJsonLines(recording))
const txs = recording.blocks.reduce((s, b) => s + (b.txs?.length ?? 0), 0)
// the URL is not printed: provider URLs embed API keys
console.error(
  `\nwrote ${out}: chain ${recording.header.chainId}, ${recording.blocks.length} blocks, ${txs} transactions, tips: ${recording.header.tipData}`,
)
