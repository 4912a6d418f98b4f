// npm run bench [-- --seconds 10 --connections 1,50 --no-build]
import { runBench, type BenchRow } from '../lib/bench/run'
import { buildService } from '../lib/devnet/service'

const args = process.argv.slice(2)
const opt = (name: string, fallback: string) => {
  const i = args.indexOf(name)
  return i >= 0 ? args[i + 1] : fallback
}
const seconds = Number(opt('--seconds', '10'))
const connections = opt('--connections', '1,50').split(',').map(Number)
if (!args.includes('--no-build')) await buildService()

const report = await runBench({ seconds, connections, log: (s) => console.error(s) })
const f = (x: number, d = 0) => x.toFixed(d)
console.log(`\nnpm run bench -- --seconds ${seconds} --connections ${connections.join(',')}   (autocannon, ${seconds} s per row after a 1 s warm-up; devnet producing a block every 2 s)\n`)
console.log('| target | connections | req/s | p50 ms | p99 ms | errors | req/s vs floor | p99 vs floor | upstream calls / new block |')
console.log('|---|---|---|---|---|---|---|---|---|')
for (const c of connections) {
  const floor = report.rows.find((r) => r.connections === c && r.target.startsWith('next constant'))!
  for (const r of report.rows.filter((x) => x.connections === c)) {
    const vs = (x: BenchRow) => (x.target.startsWith('node:http') ? '—' : `${f((100 * x.rps) / floor.rps)}%`)
    const p99 = (x: BenchRow) => (x.target.startsWith('node:http') ? '—' : `${(x.p99 / Math.max(floor.p99, 1)).toFixed(2)}×`)
    console.log(`| ${r.target} | ${c} | ${f(r.rps)} | ${r.p50} | ${r.p99} | ${r.errors} | ${vs(r)} | ${p99(r)} | ${r.callsPerBlock === undefined ? '—' : `${r.callsPerBlock.toFixed(2)} (${r.newBlocks} blocks)`} |`)
  }
}
console.log(`\nCold start (first request for a chain, nothing cached): ${f(report.cold.latencyMs)} ms, ${report.cold.upstreamRequests} upstream HTTP request(s) carrying ${report.cold.upstreamCalls} JSON-RPC calls.`)
