// npm run soak [-- --minutes 10 --no-build]
import { runSoak } from './bench/soak'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run soak [-- --minutes 10 --no-build]'
const { values } = parseCommandLine(USAGE, { minutes: { type: 'string', default: '10' }, 'no-build': { type: 'boolean', default: false } })
const minutes = Number(values.minutes)
if (!(minutes > 0)) usageExit(USAGE)
if (!values['no-build']) await ensureFreshBuild()
const r = await runSoak({ minutes, log: (s) => console.error(s) })
console.log(
  `\nnpm run soak -- --minutes ${minutes}   (10 connections, the four endpoints 15 s each per minute; the node frozen with SIGSTOP for 8 s every other minute)\n`,
)
console.log('| minute | server RSS (MB) | requests | errors | node frozen |')
console.log('|---|---|---|---|---|')
for (const s of r.samples)
  console.log(`| ${s.minute} | ${s.rssMb.toFixed(1)} | ${s.requests} | ${s.errors} | ${s.upstreamFrozen ? 'yes' : ''} |`)
const firstSample = r.samples[0]
const lastSample = r.samples.at(-1)
if (!firstSample || !lastSample) throw new Error('the soak run returned no samples')
const first = firstSample.rssMb
const last = lastSample.rssMb
console.log(
  `\nRSS ${first.toFixed(1)} MB → ${last.toFixed(1)} MB (${last - first >= 0 ? '+' : ''}${(last - first).toFixed(1)} MB); unhandled-rejection reports in the server output: ${r.unhandled}; server still running: ${r.serverAlive}`,
)
