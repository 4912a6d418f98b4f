// npm run demo [-- --replay <recording.jsonl | dataset name> [--speed N] [--no-build]]
// Without --replay: a local anvil devnet with live synthetic traffic. With --replay: the replay node
// serving a recorded real window in real time (or N times faster). Either way the service is built
// when .next is not current, started against it, and its URL and a demo API key are printed.
import { randomBytes } from 'node:crypto'
import { existsSync } from 'node:fs'
import { startDevnet } from './devnet/devnet'
import { getDemoEnv } from './demo/demo-env'
import { ensureFreshBuild } from './devnet/fresh-build'
import { startService } from './devnet/service'
import { loadRecording, loadSharedDatasets } from './backtest/datasets'
import { parseCommandLine, usageExit } from './cli/cli-args'
import { startReplayNode } from './replay/replay-node'

const USAGE = 'usage: npm run demo [-- --replay <recording.jsonl[.gz] | shared dataset name> [--speed N] [--no-build]]'
const { values } = parseCommandLine(USAGE, {
  replay: { type: 'string' },
  speed: { type: 'string', default: '1' },
  'no-build': { type: 'boolean', default: false },
})
const replay = values.replay
const speed = Number(values.speed)
if (!(speed > 0)) usageExit(USAGE)

const settings = getDemoEnv()
const port = settings.PORT
const key = 'demo'
const secret = settings.DEMO_API_SECRET ?? randomBytes(18).toString('base64url')

/** The chain to serve: a replay of a recording, or anvil with live traffic. */
async function startChain(): Promise<{ chainId: number; url: string; stop(): Promise<void> }> {
  if (replay === undefined) {
    console.log('Starting anvil and mining 520 blocks of traffic…')
    const devnet = await startDevnet({ blockTimeSec: 2, seedBlocks: 520 })
    console.log(`Devnet: chain ${devnet.chainId} at ${devnet.url}, a block every 2 s with live traffic.`)
    return { chainId: devnet.chainId, url: devnet.url, stop: devnet.stop }
  }
  const recording = existsSync(replay) ? loadRecording(replay) : loadSharedDatasets().find((d) => d.name === replay)?.recording
  if (!recording) {
    console.error(`--replay ${replay}: neither a recording file nor a dataset of ../shared/data (npm run backtest -- shared lists them)`)
    process.exit(2)
  }
  const node = await startReplayNode({ recording, speed })
  const left = ((node.length - 1 - node.headNumber()) * node.intervalMs) / 60_000
  console.log(
    `Replay: ${recording.header.source} (chain ${node.chainId}, ${node.length} recorded blocks) at ${node.url}, a block every ${Math.round(node.intervalMs)} ms, ${left.toFixed(1)} minutes of replay left.`,
  )
  return { chainId: node.chainId, url: node.url, stop: node.close }
}

const chain = await startChain()
let service: Awaited<ReturnType<typeof startService>> | undefined
const stopAll = async () => {
  await service?.stop()
  await chain.stop()
}
try {
  if (!values['no-build']) await ensureFreshBuild()
  service = await startService({
    port,
    env: {
      API_KEYS: `${key}:${secret}`,
      [`RPC_URL_${chain.chainId}`]: chain.url,
      USE_PUBLIC_RPCS: 'false',
    },
  })
} catch (err) {
  await stopAll()
  throw err
}
const origin = `http://localhost:${port}`
console.log(`
Gas API is running at ${origin}
  API key:        ${key}
  API key secret: ${secret}

Try:
  curl -u ${key}:${secret} ${origin}/networks/${chain.chainId}/suggestedGasFees
  open ${origin}/networks/${chain.chainId}

Press Ctrl+C to stop.`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopAll().then(() => process.exit(0))
  })
}
service.process.on('exit', (code) => {
  console.error(`next start exited (${code})`)
  void chain.stop().then(() => process.exit(1))
})
