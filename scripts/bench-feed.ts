// npm run bench:feed [-- --seconds 60 --subscribers 5 --connections 0 --instances 1 --no-pollers --no-build]
import { runFeedBench } from './bench/feed'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run bench:feed -- [--seconds 60] [--subscribers 5] [--connections 0] [--instances 1] [--no-pollers] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  seconds: { type: 'string', default: '60' },
  subscribers: { type: 'string', default: '5' },
  connections: { type: 'string', default: '0' },
  instances: { type: 'string', default: '1' },
  'no-pollers': { type: 'boolean', default: false },
  'no-build': { type: 'boolean', default: false },
})
const [seconds, subscribers, connections, instances] = [values.seconds, values.subscribers, values.connections, values.instances].map(
  Number,
)
if ([seconds, subscribers, connections, instances].some((n) => !Number.isInteger(n) || n! < 0) || !seconds || !instances) {
  usageExit(USAGE, 'every value must be a whole number (seconds and instances positive)')
}
if (!values['no-build']) await ensureFreshBuild()

const { rows, pollers } = await runFeedBench({
  seconds: seconds!,
  subscribers: subscribers!,
  connections: connections!,
  instances: instances!,
  pollers: !values['no-pollers'],
  log: (s) => console.error(s),
})
console.log(
  `\nnpm run bench:feed -- --seconds ${seconds} --subscribers ${subscribers} --connections ${connections} --instances ${instances}${values['no-pollers'] ? ' --no-pollers' : ''}`,
)
console.log(
  `(${instances} next start instance${instances === 1 ? '' : 's'}${instances! > 1 ? ' sharing a Redis' : ''}; five anvil devnets at once, one per clock, each behind a counting proxy; per chain ${Math.max(1, Math.floor(subscribers! / 5))} stream subscriber(s) and a client every 300 ms; ${connections} autocannon connections in all; measured after 10 s)\n`,
)
console.log('| chain clock | eth_feeHistory reads | new blocks | reads per new block |')
console.log('|---|---|---|---|')
for (const r of rows) console.log(`| ${r.clock} | ${r.reads} | ${r.blocks} | ${(r.reads / Math.max(1, r.blocks)).toFixed(2)} |`)
if (pollers.length > 0) {
  console.log(
    '\nOccasional clients: blocks behind the node head (read just before asking) per answer, and answers marked X-Data-Stale: true\n',
  )
  console.log('| client | answers | blocks behind (each answer) | stale-marked |')
  console.log('|---|---|---|---|')
  for (const p of pollers) console.log(`| ${p.client} | ${p.answers} | ${p.behind.join(', ')} | ${p.stale} of ${p.answers} |`)
}
