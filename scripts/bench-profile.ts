// npm run bench:profile [-- --seconds 10 --connections 50 --no-build]: where a request's CPU goes. For each
// target (/healthz and suggestedGasFees behind the gate, Next's no-middleware floor), a fresh `next start`
// runs under `node --cpu-prof` while autocannon loads only that target; the table gives CPU time per
// request, split by where the code lives, and the functions with the most self time.
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startDevnet } from './devnet/devnet'
import { startService } from './devnet/service'
import { ensureFreshBuild } from './devnet/fresh-build'
import { load } from './bench/load'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { readProfiles, summarize } from './bench/profile'

const USAGE = 'usage: npm run bench:profile -- [--seconds 10] [--connections 50] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  seconds: { type: 'string', default: '10' },
  connections: { type: 'string', default: '50' },
  'no-build': { type: 'boolean', default: false },
})
const [seconds, connections] = [Number(values.seconds), Number(values.connections)]
if (!(seconds > 0 && connections > 0)) usageExit(USAGE)
// the no-middleware floor route exists only in bench builds (next.config.mjs)
process.env.GAS_API_BENCH_BUILD = '1'
if (!values['no-build']) await ensureFreshBuild()

const devnet = await startDevnet({ chainId: 31337, blockTimeSec: 2, seedBlocks: 520, liveTraffic: false })
const headers = { authorization: `Basic ${Buffer.from('bench:bench-secret-of-the-bench').toString('base64')}` }
const targets: [string, string][] = [
  ['Next floor, no middleware (/bench-bare/31337)', '/bench-bare/31337'],
  ['/healthz (behind the gate)', '/healthz'],
  ['suggestedGasFees', '/networks/31337/suggestedGasFees'],
]
const rows: string[] = []
try {
  for (const [name, path] of targets) {
    const dir = mkdtempSync(join(tmpdir(), 'gas-api-profile-'))
    const service = await startService({
      env: {
        API_KEYS: 'bench:bench-secret-of-the-bench',
        RATE_LIMITS: 'bench=0',
        USE_PUBLIC_RPCS: 'false',
        REQUEST_LOG: 'false',
        RPC_URL_31337: devnet.url,
        NODE_OPTIONS: `--cpu-prof --cpu-prof-dir=${dir}`,
      },
    })
    let requests = 0
    try {
      await load(`${service.url}${path}`, { connections, seconds: 2, headers }) // warm-up (in the profile too; counted below)
      const r = await load(`${service.url}${path}`, { connections, seconds, headers })
      requests = r.requests
      console.error(`${name}: ${Math.round(r.rps)} req/s, p99 ${r.p99} ms`)
      rows.push(`${name}|${Math.round(r.rps)}`)
    } finally {
      await service.stop()
    }
    const s = summarize(readProfiles(dir))
    const perReq = (us: number) => (requests > 0 ? (us / requests).toFixed(0) : '—')
    console.log(`\n### ${name}: ${rows.at(-1)!.split('|')[1]} req/s at ${connections} connections\n`)
    console.log(`CPU per request of the measured load (µs; the warm-up's share is spread over it):\n`)
    console.log('| where | µs per request | share of busy time |')
    console.log('|---|---|---|')
    for (const [where, us] of s.byWhere) console.log(`| ${where} | ${perReq(us)} | ${((100 * us) / s.busyUs).toFixed(1)}% |`)
    console.log(`\nTop self time:\n`)
    console.log('| function | where | share of busy time |')
    console.log('|---|---|---|')
    for (const f of s.top.slice(0, 15)) console.log(`| ${f.name} | ${f.where} | ${((100 * f.us) / s.busyUs).toFixed(1)}% |`)
  }
} finally {
  await devnet.stop()
}
