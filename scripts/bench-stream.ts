// npm run bench:stream [-- --subscribers 1000,5000,10000 --blocks 5 --block-seconds 2 --poll 1000,5000 --poll-seconds 10 --pause-seconds 0 --no-build]
import { runStreamBench } from './bench/stream'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE =
  'usage: npm run bench:stream -- [--subscribers 1000,5000,10000] [--blocks 5] [--block-seconds 2] [--poll 1000,5000] [--poll-seconds 10] [--pause-seconds 0] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  subscribers: { type: 'string', default: '1000,5000,10000' },
  blocks: { type: 'string', default: '5' },
  'block-seconds': { type: 'string', default: '2' },
  poll: { type: 'string', default: '1000,5000' },
  'poll-seconds': { type: 'string', default: '10' },
  'pause-seconds': { type: 'string', default: '0' },
  'no-build': { type: 'boolean', default: false },
})
const list = (v: unknown) => String(v).split(',').map(Number)
const subscribers = list(values.subscribers)
const pollClients = list(values.poll)
const blocks = Number(values.blocks)
const blockSeconds = Number(values['block-seconds'])
const pollSeconds = Number(values['poll-seconds'])
const pauseSeconds = Number(values['pause-seconds'])
if (
  [...subscribers, ...pollClients, blocks, blockSeconds, pollSeconds].some((n) => !Number.isInteger(n) || n <= 0) ||
  !(pauseSeconds >= 0)
) {
  usageExit(USAGE, 'every value must be a positive whole number')
}
if (!values['no-build']) await ensureFreshBuild()

const report = await runStreamBench({
  subscribers,
  blocks,
  blockSeconds,
  pollClients,
  pollSeconds,
  pauseSeconds,
  log: (s) => console.error(s),
})
const f = (x: number, d = 0) => x.toFixed(d)
console.log(
  `\nnpm run bench:stream -- --subscribers ${subscribers.join(',')} --blocks ${blocks} --block-seconds ${blockSeconds} --poll ${pollClients.join(',')} --poll-seconds ${pollSeconds}${pauseSeconds > 0 ? ` --pause-seconds ${pauseSeconds}` : ''}`,
)
console.log(
  `(one next start; anvil devnet with a block every ${blockSeconds} s; subscribers are raw sockets in the bench process on the same machine; delivery delay = each subscriber's arrival − the first subscriber's arrival of the same block)\n`,
)
console.log(
  '| subscribers | connect (s) | got every block | blocks with an event / new blocks | delivery p50 ms | p99 ms | max ms | RSS before / connected / end (MiB) | KiB per subscriber | service CPU % | eth_feeHistory reads (s) | reads per new block |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of report.streams) {
  console.log(
    `| ${r.subscribers} | ${f(r.connectSeconds, 1)} | ${r.complete} | ${r.blocks} / ${r.newBlocks} | ${f(r.delayP50Ms)} | ${f(r.delayP99Ms)} | ${f(r.delayMaxMs)} | ${f(r.rssBaseMiB)} / ${f(r.rssConnectedMiB)} / ${f(r.rssEndMiB)} | ${f(r.kibPerSubscriber, 1)} | ${f(r.cpuPercent)} | ${r.reads} (${f(r.seconds, 1)} s) | ${(r.reads / Math.max(1, r.newBlocks)).toFixed(2)} |`,
  )
}
console.log('\nService RSS over each measured period, sampled every 10 s (MiB), and its least-squares slope:\n')
for (const r of report.streams) {
  console.log(
    `- ${r.subscribers} subscribers: ${r.rssSamplesMiB.map((x) => f(x)).join(', ')} (slope ${f(r.rssSlopeMiBPerMinute, 1)} MiB/min)`,
  )
  console.log(`  V8 heap in use at the same moments (MiB): ${r.heapSamplesMiB.map((x) => f(x)).join(', ')}`)
}
console.log('\nThe same update rate by polling: each client GETs suggestedGasFees once per block (autocannon -R clients/interval):\n')
console.log('| clients | needed req/s | achieved req/s | p50 ms | p99 ms | errors | service CPU % |')
console.log('|---|---|---|---|---|---|---|')
for (const p of report.polls) {
  console.log(`| ${p.clients} | ${f(p.targetRps)} | ${f(p.rps)} | ${p.p50} | ${p.p99} | ${p.errors} | ${f(p.cpuPercent)} |`)
}
