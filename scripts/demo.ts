// npm run demo – a local devnet with live traffic, the service built and started against it.
import { randomBytes } from 'node:crypto'
import { startDevnet } from '../lib/devnet/devnet'
import { getDemoEnv } from '../lib/env'
import { ensureFreshBuild } from '../lib/devnet/fresh-build'
import { startService } from '../lib/devnet/service'

const settings = getDemoEnv()
const port = settings.PORT
const key = 'demo'
const secret = settings.DEMO_API_SECRET ?? randomBytes(12).toString('base64url')

console.log('Starting anvil and mining 520 blocks of traffic…')
const devnet = await startDevnet({ blockTimeSec: 2, seedBlocks: 520 })
console.log(`Devnet: chain ${devnet.chainId} at ${devnet.url}, a block every 2 s with live traffic.`)
const stopAll = async () => {
  await service?.stop()
  await devnet.stop()
}
let service: Awaited<ReturnType<typeof startService>> | undefined
try {
  if (!process.argv.includes('--no-build')) await ensureFreshBuild()
  service = await startService({
    port,
    env: {
      API_KEYS: `${key}:${secret}`,
      [`RPC_URL_${devnet.chainId}`]: devnet.url,
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
  curl -u ${key}:${secret} ${origin}/networks/${devnet.chainId}/suggestedGasFees

Press Ctrl+C to stop.`)

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void stopAll().then(() => process.exit(0))
  })
}
service.process.on('exit', (code) => {
  console.error(`next start exited (${code})`)
  void devnet.stop().then(() => process.exit(1))
})
