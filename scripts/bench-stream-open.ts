// npm run bench:stream-open [-- --baseline ../wt-old --rounds 10 --per-round 100 --concurrency 10 --keys 500 --cpu-prof <dir> --paths … --no-build]
import { writeFileSync } from 'node:fs'
import { resolve } from 'node:path'
import { runStreamOpenCostBench, type OpenCostRow } from './bench/stream-open-cost'
import { benchBuilds, type Build } from './bench/stream-burst'
import { readProfiles, summarize } from './bench/profile'
import { buildIsFresh, ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE =
  'usage: npm run bench:stream-open -- [--baseline <folder with a build of another commit>] [--rounds 10] [--per-round 100] [--concurrency 10] [--keys 500] [--cpu-prof <dir>] [--paths <path or folder=path>,…] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  baseline: { type: 'string' },
  rounds: { type: 'string', default: '10' },
  'per-round': { type: 'string', default: '100' },
  concurrency: { type: 'string', default: '10' },
  keys: { type: 'string', default: '500' },
  'cpu-prof': { type: 'string' },
  paths: { type: 'string' },
  'no-build': { type: 'boolean', default: false },
})
const opts = {
  rounds: Number(values.rounds),
  perRound: Number(values['per-round']),
  concurrency: Number(values.concurrency),
  keys: Number(values.keys),
}
if (Object.values(opts).some((v) => !Number.isInteger(v) || v <= 0)) usageExit(USAGE, 'every value must be a positive whole number')
// --paths: each path (of this checkout's build, or `<folder>=<path>`) side by side, one service each
const builds: Build[] = await benchBuilds(values.paths, values['no-build'], USAGE)
if (values.baseline !== undefined) {
  const dir = resolve(values.baseline)
  if (!buildIsFresh(dir)) await ensureFreshBuild(dir)
  builds.unshift({ label: 'baseline', dir })
}
const profRoot = values['cpu-prof'] ? resolve(values['cpu-prof']) : undefined
const profileDirOf = (b: Build) => `${profRoot}/${b.label.replace(/\W+/g, '-')}`
const rows = await runStreamOpenCostBench({
  builds,
  ...opts,
  ...(profRoot ? { profileDirOf } : {}),
  log: (s) => console.error(s),
})

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!
const f = (x: number) => x.toFixed(0)
console.log(
  `\nnpm run bench:stream-open -- --rounds ${opts.rounds} --per-round ${opts.perRound} --concurrency ${opts.concurrency} --keys ${opts.keys}${values.baseline ? ` --baseline ${values.baseline}` : ''}${values.paths ? ` --paths ${values.paths}` : ''}`,
)
console.log(
  `(the next starts at once, default settings, ${opts.keys} API keys, one 2-s anvil devnet; each round ${opts.perRound} opens per build, ${opts.concurrency} at a time, each until its first event; the builds take turns, alternating which goes first; service CPU from /proc, 10 ms ticks)\n`,
)
console.log('| build | CPU per open, median µs | min | max | each round (µs) | wall per open, median ms |')
console.log('|---|---|---|---|---|---|')
for (const r of rows)
  console.log(
    `| ${r.label} ${r.commit} | ${f(median(r.perOpenUs))} | ${f(Math.min(...r.perOpenUs))} | ${f(Math.max(...r.perOpenUs))} | ${r.perOpenUs.map(f).join(', ')} | ${median(r.wallMs).toFixed(2)} |`,
  )
// each build against the first, round by round (the same round meets the same machine)
const [a, ...others] = rows as [OpenCostRow, ...OpenCostRow[]]
for (const b of others) {
  const ratios = a.perOpenUs.map((x, i) => b.perOpenUs[i]! / x)
  const diffs = a.perOpenUs.map((x, i) => b.perOpenUs[i]! - x)
  console.log(
    `\n${b.label} / ${a.label}, per round: ${ratios.map((x) => x.toFixed(2)).join(', ')} (median ${median(ratios).toFixed(2)}); difference per open, median ${f(median(diffs))} µs`,
  )
}
if (profRoot) {
  console.log('\nCPU profiles (node --cpu-prof) cut to the rounds, self time per open:\n')
  for (const [i, r] of rows.entries()) {
    // the rounds' windows beside the profile, for a closer look at it
    writeFileSync(`${profileDirOf(builds[i]!)}/rounds.json`, JSON.stringify(r.windows))
    const s = summarize(readProfiles(profileDirOf(builds[i]!)), r.windows)
    const n = opts.rounds * opts.perRound
    console.log(`#### ${r.label} ${r.commit}: ${f(s.busyUs / n)} µs busy per open\n`)
    console.log('| where | µs per open |')
    console.log('|---|---|')
    for (const [where, us] of s.byWhere) console.log(`| ${where} | ${f(us / n)} |`)
    console.log('\n| function (self time) | µs per open |')
    console.log('|---|---|')
    for (const fn of s.top.slice(0, 30)) console.log(`| ${fn.name} | ${(fn.us / n).toFixed(1)} |`)
    console.log()
  }
}
