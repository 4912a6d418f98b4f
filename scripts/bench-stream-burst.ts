// npm run bench:stream-burst [-- --subscribers 5000 --batch 200 --every-ms 50 --per-key 10 --blocks 28 --block-seconds 2 --runs 2 --baseline ../wt-old --paths … --no-build]
import { resolve } from 'node:path'
import { benchBuilds, isFloor, profileDirOf, runStreamBurstBench, type Build } from './bench/stream-burst'
import { readProfiles, summarize } from './bench/profile'
import { buildIsFresh, ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE =
  'usage: npm run bench:stream-burst -- [--subscribers 5000] [--batch 200] [--every-ms 50] [--per-key 10] [--blocks 28] [--block-seconds 2] [--runs 2] [--baseline <folder with a build of another commit>] [--paths <path or folder=path>,… e.g. /networks/{chainId}/stream,/networks/{chainId}/bench-floor-stream,/bench-bare/{chainId}/stream] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  subscribers: { type: 'string', default: '5000' },
  batch: { type: 'string', default: '200' },
  'every-ms': { type: 'string', default: '50' },
  'per-key': { type: 'string', default: '10' },
  blocks: { type: 'string', default: '28' },
  'block-seconds': { type: 'string', default: '2' },
  runs: { type: 'string', default: '2' },
  baseline: { type: 'string' },
  'log-dir': { type: 'string' },
  'cpu-prof': { type: 'string' },
  paths: { type: 'string' },
  'no-build': { type: 'boolean', default: false },
})
const n = (k: keyof typeof values) => Number(values[k])
const opts = {
  subscribers: n('subscribers'),
  perBatch: n('batch'),
  everyMs: n('every-ms'),
  perKey: n('per-key'),
  blocks: n('blocks'),
  blockSeconds: n('block-seconds'),
  runs: n('runs'),
}
if (Object.values(opts).some((v) => !Number.isInteger(v) || v <= 0)) usageExit(USAGE, 'every value must be a positive whole number')
// --paths: each path (of this checkout's build, or `<folder>=<path>`) opened in turn
const builds: Build[] = await benchBuilds(values.paths, values['no-build'], USAGE)
if (values.baseline !== undefined) {
  const dir = resolve(values.baseline)
  // the baseline's own tools may differ: its build is taken as it is, rebuilt only when missing or stale
  if (!buildIsFresh(dir)) await ensureFreshBuild(dir)
  builds.unshift({ label: 'baseline', dir })
}

const rows = await runStreamBurstBench({
  builds,
  ...opts,
  statusDeadlineMs: 34_000,
  ...(values['log-dir'] ? { logDir: resolve(values['log-dir']) } : {}),
  ...(values['cpu-prof'] ? { profileDir: resolve(values['cpu-prof']) } : {}),
  log: (s) => console.error(s),
})
const f = (x: number) => (Number.isNaN(x) ? '—' : x.toFixed(0))
console.log(
  `\nnpm run bench:stream-burst -- --subscribers ${opts.subscribers} --batch ${opts.perBatch} --every-ms ${opts.everyMs} --per-key ${opts.perKey} --blocks ${opts.blocks} --block-seconds ${opts.blockSeconds} --runs ${opts.runs}${values.baseline ? ` --baseline ${values.baseline}` : ''}${values.paths ? ` --paths ${values.paths}` : ''}`,
)
console.log(
  `(one next start per row with the default settings, ${Math.ceil(opts.subscribers / opts.perKey)} API keys; anvil devnet, a block every ${opts.blockSeconds} s; latencies from each socket's connect; status and first event waited for 34 s)\n`,
)
console.log(
  '| build | subscribers | opened (200) / refused / no status | status line p50 / p99 / max ms | first event p50 / p99 / max ms | first event > 10 s (of them, SYN retried) | connected p50 / p99 / max ms | blocks to every subscriber / blocks (subscribers missing one after their first) | service CPU s (kernel) | listen overflows / SYN retransmits | steal % / reference ms |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|')
for (const r of rows)
  console.log(
    `| ${r.label} ${r.commit} | ${r.subscribers} | ${r.opened} / ${r.refused} / ${r.silent}${r.lateStatus ? ` (${r.lateStatus} later)` : ''} | ${f(r.statusMs.p50)} / ${f(r.statusMs.p99)} / ${f(r.statusMs.max)} | ${f(r.firstEventMs.p50)} / ${f(r.firstEventMs.p99)} / ${f(r.firstEventMs.max)} | ${r.firstOver10s} (${r.lateAfterSynRetry}) | ${f(r.connectMs.p50)} / ${f(r.connectMs.p99)} / ${f(r.connectMs.max)} | ${isFloor(builds.find((b) => b.label === r.label)!) ? '— (a floor: its events are not blocks)' : `${r.blocksToAll} / ${r.blocks} (${r.missedAfterFirst})`} | ${r.cpuSeconds.toFixed(1)} (${r.kernelSeconds.toFixed(1)}) | ${r.listenOverflows} / ${r.synRetrans} | ${r.stealPercent.toFixed(1)} / ${f(r.referenceMs)} |`,
  )

if (values['cpu-prof']) {
  const root = resolve(values['cpu-prof'])
  console.log('\nCPU profiles of the service (node --cpu-prof, the whole process life: warm-up, burst and blocks), per stream opened:\n')
  for (const [i, r] of rows.entries()) {
    const build = builds.find((b) => b.label === r.label)!
    const s = summarize(readProfiles(profileDirOf(root, build, Math.floor(i / builds.length))))
    const per = (us: number) => (us / Math.max(1, r.opened)).toFixed(0)
    console.log(`#### ${r.label} ${r.commit}: ${per(s.busyUs)} µs busy per stream opened (${r.opened})\n`)
    console.log('| where | µs per open |')
    console.log('|---|---|')
    for (const [where, us] of s.byWhere) console.log(`| ${where} | ${per(us)} |`)
    console.log('\n| function (self time) | µs per open |')
    console.log('|---|---|')
    for (const f of s.top.slice(0, 25)) console.log(`| ${f.name} | ${per(f.us)} |`)
    console.log()
  }
}
