// npm run bench:flashblocks [-- --pollers 100 --seconds 20 --every-ms 0 --no-build]
// The upstream reads of a flashblocks chain under many pollers: one next start on its defaults against the fake
// Base node of scripts/devnet/flashblocks-node.ts (2-s blocks in 10 pieces of 200 ms), each poller asking
// suggestedGasFees as fast as it is answered, or every `--every-ms`. Prints a table.
import { startFlashblocksNode } from './devnet/flashblocks-node'
import { startService } from './devnet/service'
import { ensureFreshBuild } from './devnet/fresh-build'
import { parseCommandLine, usageExit } from './cli/cli-args'

const USAGE = 'usage: npm run bench:flashblocks -- [--pollers 100] [--seconds 20] [--every-ms 0] [--no-build]'
const { values } = parseCommandLine(USAGE, {
  pollers: { type: 'string', default: '100' },
  seconds: { type: 'string', default: '20' },
  'every-ms': { type: 'string', default: '0' },
  'no-build': { type: 'boolean', default: false },
})
const [pollers, seconds, everyMs] = [values.pollers, values.seconds, values['every-ms']].map(Number)
if (![pollers, seconds].every((n) => Number.isInteger(n) && n! > 0) || !(Number.isInteger(everyMs) && everyMs! >= 0))
  usageExit(USAGE, 'every value must be a positive whole number')
if (!values['no-build']) await ensureFreshBuild()

const node = await startFlashblocksNode({ chainId: 8453 })
const auth = `Basic ${Buffer.from('bench:bench-secret-0123456789').toString('base64')}`
const service = await startService({
  env: {
    API_KEYS: 'bench:bench-secret-0123456789',
    RATE_LIMITS: 'bench=0',
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_URL_8453: node.url,
  },
})
try {
  const url = `${service.url}/networks/8453/suggestedGasFees`
  const ask = async () => (await (await fetch(url, { headers: { authorization: auth } })).json()) as { pending?: { piece: number } }
  // warm: until the answers follow the pieces (the probe takes three block intervals)
  const deadline = Date.now() + 60_000
  while (!(await ask()).pending) {
    if (Date.now() > deadline) throw new Error('the service never followed the pending pieces')
    await new Promise((r) => setTimeout(r, 200))
  }
  const before = node.calls()
  const firstBlock = node.building().number
  const latencies: number[] = []
  const pieces = new Set<string>()
  const t0 = Date.now()
  await Promise.all(
    Array.from({ length: pollers! }, async () => {
      while (Date.now() - t0 < seconds! * 1000) {
        const s = performance.now()
        const body = (await (await fetch(url, { headers: { authorization: auth } })).json()) as {
          pending?: { blockNumber: number; piece: number }
        }
        latencies.push(performance.now() - s)
        if (body.pending) pieces.add(`${body.pending.blockNumber}.${body.pending.piece}`)
        if (everyMs) await new Promise((r) => setTimeout(r, everyMs))
      }
    }),
  )
  const elapsed = Date.now() - t0
  const after = node.calls()
  const blocks = node.building().number - firstBlock
  const piecesElapsed = elapsed / 200
  latencies.sort((a, b) => a - b)
  const q = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!.toFixed(0)
  console.log(
    `\nnpm run bench:flashblocks -- --pollers ${pollers} --seconds ${seconds}   (one next start on its defaults, a fake Base node: 2-s blocks, 10 pieces of 200 ms)\n`,
  )
  console.log(
    '| pollers | s | answers | answers/s | p50 ms | p99 ms | pieces elapsed | pieces answered | pending reads | per piece | eth_feeHistory reads | blocks | per block | all calls |',
  )
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|')
  console.log(
    `| ${pollers} | ${(elapsed / 1000).toFixed(1)} | ${latencies.length} | ${((latencies.length * 1000) / elapsed).toFixed(0)} | ${q(0.5)} | ${q(0.99)} | ${piecesElapsed.toFixed(0)} | ${pieces.size} | ${after.pending - before.pending} | ${((after.pending - before.pending) / piecesElapsed).toFixed(2)} | ${after.feeHistory - before.feeHistory} | ${blocks} | ${((after.feeHistory - before.feeHistory) / Math.max(1, blocks)).toFixed(2)} | ${after.total - before.total} |`,
  )
} finally {
  await service.stop()
  await node.close()
}
