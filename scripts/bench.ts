// npm run bench [-- --seconds 5 --rounds 5 --connections 1,50 --no-build --compare-edge]
import { buildEdgeTwin } from './bench/edge-build'
import { runBench } from './bench/run'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run bench [-- --seconds 5 --rounds 5 --connections 1,50 --no-build --compare-edge]'
const { values } = parseCommandLine(USAGE, {
  seconds: { type: 'string', default: '5' },
  rounds: { type: 'string', default: '5' },
  connections: { type: 'string', default: '1,50' },
  'no-build': { type: 'boolean', default: false },
  'compare-edge': { type: 'boolean', default: false },
})
const seconds = Number(values.seconds)
const rounds = Number(values.rounds)
const connections = values.connections.split(',').map(Number)
if (![seconds, rounds, ...connections].every((n) => n > 0)) usageExit(USAGE)
// the framework-floor routes exist only in bench builds (next.config.mjs)
process.env.GAS_API_BENCH_BUILD = '1'
if (!values['no-build']) await ensureFreshBuild()
// --compare-edge: the same checkout built again with the middleware on the Edge runtime, measured in the same rounds
const edgeDir = values['compare-edge'] ? await buildEdgeTwin() : undefined

const report = await runBench({ seconds, connections, rounds, log: (s) => console.error(s), ...(edgeDir ? { edgeDir } : {}) })
const f = (x: number, d = 0) => x.toFixed(d)
console.log(
  `\nnpm run bench -- --seconds ${seconds} --rounds ${rounds} --connections ${connections.join(',')}${edgeDir ? ' --compare-edge' : ''}   (autocannon, ${rounds} interleaved rounds of ${seconds} s per target after a 1 s warm-up each; medians over the rounds; devnet producing a block every 2 s)\n`,
)
console.log(
  '| target | connections | req/s | p50 ms | p99 ms | errors | req/s vs floor behind the gate | req/s vs Next floor (no middleware) | p99 vs floor | upstream calls / new block (worst round) |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|')
for (const c of connections) {
  for (const r of report.rows.filter((x) => x.connections === c)) {
    const vs = r.rpsVsFloor === undefined ? '—' : `${f(100 * r.rpsVsFloor)}%`
    const vsBare = r.rpsVsBare === undefined ? '—' : `${r.rpsVsBare.toFixed(2)}×`
    const p99 = r.p99VsFloor === undefined ? '—' : `${r.p99VsFloor.toFixed(2)}×`
    const calls =
      r.callsPerBlock === undefined ? '—' : `${r.callsPerBlock.toFixed(2)} (${r.worstCallsPerBlock!.toFixed(2)}; ${r.newBlocks} blocks)`
    console.log(`| ${r.target} | ${c} | ${f(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${vs} | ${vsBare} | ${p99} | ${calls} |`)
  }
}
console.log(
  `\nCold start (first request for a chain, nothing cached): ${f(report.cold.latencyMs)} ms, ${report.cold.upstreamRequests} upstream HTTP request(s) carrying ${report.cold.upstreamCalls} JSON-RPC calls.`,
)
