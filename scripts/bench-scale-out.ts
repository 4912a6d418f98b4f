// npm run bench:scale-out [-- --seconds 20 --connections 10 --no-build]
import { runScaleOut } from './bench/scale-out'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run bench:scale-out [-- --seconds 20 --connections 10 --no-build]'
const { values } = parseCommandLine(USAGE, {
  seconds: { type: 'string', default: '20' },
  connections: { type: 'string', default: '10' },
  'no-build': { type: 'boolean', default: false },
})
const seconds = Number(values.seconds)
const connections = Number(values.connections)
if (!(seconds > 0 && connections > 0)) usageExit(USAGE)
if (!values['no-build']) await ensureFreshBuild()

const rows = await runScaleOut({ seconds, connections, log: (s) => console.error(s) })
console.log(
  `\nnpm run bench:scale-out -- --seconds ${seconds} --connections ${connections}   (per instance: autocannon on suggestedGasFees, ${connections} connections, ${seconds} s; anvil producing a block every 2 s)\n`,
)
console.log(
  '| setup | req/s (all instances) | p99 ms (worst) | errors | new blocks | upstream reads / new block | JSON-RPC calls / new block | new windows by source | Redis commands |',
)
console.log('|---|---|---|---|---|---|---|---|---|')
for (const r of rows) {
  const sources = r.sources
    ? Object.entries(r.sources)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '—'
  console.log(
    `| ${r.setup} | ${Math.round(r.load.rps)} | ${r.load.p99} | ${r.load.errors} | ${r.newBlocks} | ${r.readsPerBlock.toFixed(2)} | ${r.callsPerBlock.toFixed(2)} | ${sources} | ${r.redisCommands ?? '—'} |`,
  )
}
