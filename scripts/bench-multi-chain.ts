// npm run bench:multi-chain [-- --chains 10 --seconds 10 --rounds 3 --connections 10 --no-build]
import { runMultiChainBench } from './bench/multi-chain'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run bench:multi-chain -- [--chains 10] [--seconds 10] [--rounds 3] [--connections 10] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  chains: { type: 'string', default: '10' },
  seconds: { type: 'string', default: '10' },
  rounds: { type: 'string', default: '3' },
  connections: { type: 'string', default: '10' },
  'no-build': { type: 'boolean', default: false },
})
const [chains, seconds, rounds, connections] = [values.chains, values.seconds, values.rounds, values.connections].map(Number)
if (![chains, seconds, rounds, connections].every((n) => Number.isInteger(n) && n! > 0) || chains! > 100) {
  usageExit(USAGE, 'every value must be a positive whole number, chains at most 100')
}
if (!values['no-build']) await ensureFreshBuild()

const rows = await runMultiChainBench({
  chains: chains!,
  seconds: seconds!,
  rounds: rounds!,
  connections: connections!,
  log: (s) => console.error(s),
})
console.log(
  `\nnpm run bench:multi-chain -- --chains ${chains} --seconds ${seconds} --rounds ${rounds} --connections ${connections}   (one next start, ${chains} anvil devnets with 2-s blocks each behind a counting proxy; autocannon in-process, ${rounds} interleaved rounds of ${seconds} s per target; medians over the rounds)\n`,
)
console.log(
  '| target | connections | req/s | chain answers/s | p50 ms | p99 ms | errors | eth_feeHistory reads | new blocks (all chains) | reads per new block |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows)
  console.log(
    `| ${r.target} | ${connections} | ${r.rps.toFixed(0)} | ${r.chainsPerSecond.toFixed(0)} | ${r.p50} | ${r.p99} | ${r.errors} | ${r.reads} | ${r.blocks} | ${(r.reads / Math.max(1, r.blocks)).toFixed(2)} |`,
  )
