// npm run bench:piece-accuracy [-- --seconds 120 --burst-seconds 6 --calm-seconds 6 --baseline <dir> --no-build]
// How the levels keep their promise per piece on a flashblocks chain: one next start against the fake Base node of
// scripts/devnet/flashblocks-node.ts (2-s blocks in 10 pieces of 200 ms, seeded), its burst of 1M-gas transactions
// turned on and off in turns, one client asking suggestedGasFees every second; then GET accuracy's `pieces` (the
// service's own judge per piece, docs/api.md). `--baseline <dir>` runs a built checkout there the same way first.
import { resolve } from 'node:path'
import { startFlashblocksNode } from './devnet/flashblocks-node'
import { startService } from './devnet/service'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { AccuracyReportSchema } from '../lib/core/contract/schemas'

const USAGE =
  'usage: npm run bench:piece-accuracy -- [--seconds 120] [--burst-seconds 6] [--calm-seconds 6] [--baseline <dir>] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  seconds: { type: 'string', default: '120' },
  'burst-seconds': { type: 'string', default: '6' },
  'calm-seconds': { type: 'string', default: '6' },
  baseline: { type: 'string' },
  'no-build': { type: 'boolean', default: false },
})
const [seconds, burstS, calmS] = [values.seconds, values['burst-seconds'], values['calm-seconds']].map(Number)
if (![seconds, burstS, calmS].every((n) => Number.isInteger(n) && n! > 0)) usageExit(USAGE, 'every value must be a positive whole number')
if (!values['no-build']) await ensureFreshBuild()

const KEY = 'bench:bench-secret-0123456789'
const auth = `Basic ${Buffer.from(KEY).toString('base64')}`
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms))

/** One build's run: the scenario, then its accuracy report's pieces. */
async function run(cwd: string) {
  const node = await startFlashblocksNode({ chainId: 8453 })
  const service = await startService({
    cwd,
    env: { API_KEYS: KEY, RATE_LIMITS: 'bench=0', USE_PUBLIC_RPCS: 'false', REQUEST_LOG: 'false', RPC_URL_8453: node.url },
  })
  try {
    const get = async (endpoint: string) =>
      (await (await fetch(`${service.url}/networks/8453/${endpoint}`, { headers: { authorization: auth } })).json()) as unknown
    const deadline = Date.now() + 60_000
    while (!((await get('suggestedGasFees')) as { pending?: unknown }).pending) {
      if (Date.now() > deadline) throw new Error(`${cwd}: the service never followed the pending pieces`)
      await sleep(200)
    }
    const t0 = Date.now()
    let bursting = false
    while (Date.now() - t0 < seconds! * 1000) {
      const phase = ((Date.now() - t0) / 1000) % (burstS! + calmS!)
      if (phase < burstS! !== bursting) node.burst((bursting = !bursting))
      await get('suggestedGasFees')
      await sleep(1000)
    }
    node.burst(false)
    return AccuracyReportSchema.parse(await get('accuracy'))
  } finally {
    await service.stop()
    await node.close()
  }
}

const builds = [...(values.baseline ? [resolve(values.baseline)] : []), process.cwd()]
console.log(`npm run bench:piece-accuracy   (${seconds} s, the burst on ${burstS} s and off ${calmS} s in turns, one client every 1 s)\n`)
console.log('| build | level | trials | promised pieces | in within promise | target | median wait pieces | median overpayment |')
console.log('|---|---|---|---|---|---|---|---|')
for (const cwd of builds) {
  const report = await run(cwd)
  const p = report.pieces
  if (!p) {
    console.log(`| ${cwd} | (no pieces judged) | | | | | | |`)
    continue
  }
  for (const level of ['low', 'medium', 'high'] as const) {
    const l = p.levels[level]
    const share = l.includedWithinPromise === null ? '—' : `${(100 * l.includedWithinPromise).toFixed(1)}%`
    console.log(
      `| ${cwd} | ${level} | ${l.trials} | ${l.promisedPieces} | ${share} | ${100 * l.targetInclusion}% | ${l.medianWaitPieces ?? '—'} | ${l.medianOverpayment?.toFixed(3) ?? '—'} |`,
    )
  }
}
