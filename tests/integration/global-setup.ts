import { createHash } from 'node:crypto'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { TestProject } from 'vitest/node'
import { freePort, startAnvil } from '@/scripts/devnet/anvil'
import { startCountingProxy } from '@/scripts/devnet/counting-proxy'
import { startDevnet } from '@/scripts/devnet/devnet'
import { rpc } from '@/scripts/devnet/json-rpc'
import { ensureFreshBuild } from '@/scripts/devnet/fresh-build'
import { startService } from '@/scripts/devnet/service'
import { startFakeRpc } from '../support/fake-rpc'
import { fakeNodeChain } from '../support/mainnet-blocks'

/** What the integration tests get (vitest inject). */
export type IntegrationContext = {
  api: string
  /** node RPC URL of the live devnet, for independent reads */
  nodeUrl: string
  /** node RPC URL of the berlin (pre-EIP-1559) anvil of chain 31339: mining only on evm_mine */
  legacyNodeUrl: string
  /** counting proxies' URLs (GET /__counts, POST /__reset) */
  mainProxy: string
  coldProxy: string
  credentials: { plain: [string, string]; hashed: [string, string]; colon: [string, string]; limited: [string, string] }
  /** the fake node of the flaky chain (POST /__mode/<mode> breaks or mends it) */
  flakyNode: string
  /** pid of the anvil behind chain 31344 (SIGSTOP / SIGCONT) */
  freezablePid: number
  /** where the server's stdout and stderr go */
  logFile: string
  /** every upstream URL configured: none may appear in answers or logs */
  rpcUrls: string[]
  chains: {
    live: number
    cold: number
    legacy: number
    garbage: number
    hang: number
    down: number
    flaky: number
    freezable: number
    wrongChain: number
    unlisted: number
  }
  rpcTimeoutMs: number
  maxStaleSeconds: number
  /** the bearer token that opens /metrics */
  metricsToken: string
}

declare module 'vitest' {
  export interface ProvidedContext {
    integration: IntegrationContext
  }
}

export default async function setup(project: TestProject) {
  const stops: (() => Promise<void>)[] = []
  const teardown = async () => {
    for (const stop of stops.reverse()) await stop().catch(() => {})
  }
  try {
    const live = await startDevnet({ chainId: 31337, blockTimeSec: 1, seedBlocks: 520 })
    stops.push(live.stop)
    const mainProxy = await startCountingProxy(live.url)
    stops.push(mainProxy.close)

    const cold = await startDevnet({ chainId: 31338, blockTimeSec: 5, seedBlocks: 40, liveTraffic: false })
    stops.push(cold.stop)
    const coldProxy = await startCountingProxy(cold.url)
    stops.push(coldProxy.close)

    const legacy = await startAnvil({ chainId: 31339, hardfork: 'berlin' })
    stops.push(legacy.stop)
    await rpc(legacy.url, 'evm_mine')

    const { blocks, nextBaseFee } = fakeNodeChain()
    const garbage = await startFakeRpc({ chainId: 31340, blocks, nextBaseFee, mode: 'garbage' })
    stops.push(garbage.close)
    const hang = await startFakeRpc({ chainId: 31341, blocks, nextBaseFee, mode: 'hang' })
    stops.push(hang.close)
    // a real anvil a test freezes with SIGSTOP and thaws with SIGCONT
    const freezable = await startDevnet({ chainId: 31344, blockTimeSec: 1, seedBlocks: 30, liveTraffic: false })
    stops.push(freezable.stop)

    // a node that can be broken and mended from a test: 1 s slots, so the cache expires every second
    const flaky = await startFakeRpc({ chainId: 31343, ...fakeNodeChain(1) })
    stops.push(flaky.close)
    const closedPort = await freePort()

    await ensureFreshBuild()
    const rpcTimeoutMs = 1_500
    const maxStaleSeconds = 4
    const metricsToken = 'itest-metrics-token-0123456789'
    const credentials: IntegrationContext['credentials'] = {
      plain: ['itest', 'plain-secret-of-itest'],
      hashed: ['hashed', 'only-its-hash-is-configured'],
      colon: ['colon', 'a:b:c:colons-in-secret'],
      limited: ['limited', 'five-requests-an-hour'],
    }
    const sha = createHash('sha256').update(credentials.hashed[1]).digest('hex')
    const logFile = join(mkdtempSync(join(tmpdir(), 'gas-api-log-')), 'server.log')
    const service = await startService({
      logFile,
      env: {
        API_KEYS: `${credentials.plain.join(':')}, ${credentials.hashed[0]}:sha256:${sha}, ${credentials.colon.join(':')}, ${credentials.limited.join(':')}`,
        // the load tests' key is unlimited; 'limited' has 5 requests an hour for the 429 test (its window
        // opens with its first request, so the test's six requests all fall in it)
        RATE_LIMITS: `${credentials.plain[0]}=0, ${credentials.limited[0]}=5/3600`,
        METRICS_TOKEN: metricsToken,
        // the bad-input and error tables send hundreds of wrong credentials from this one address; the
        // failed-authentication throttle is tested on a service of its own (operations.test.ts)
        AUTH_FAILURE_LIMIT: '0',
        USE_PUBLIC_RPCS: 'false',
        RPC_TIMEOUT_MS: String(rpcTimeoutMs),
        MAX_STALE_SECONDS: String(maxStaleSeconds),
        // the fake chains replay 2022 mainnet blocks: their heads are years old by the wall clock
        MAX_HEAD_AGE_SECONDS: '0',
        RPC_URL_31337: mainProxy.url,
        // the first URL is dead: every read of the cold chain exercises failover
        RPC_URL_31338: `http://127.0.0.1:${closedPort},${coldProxy.url}`,
        RPC_URL_31339: legacy.url,
        RPC_URL_31340: garbage.url,
        RPC_URL_31341: hang.url,
        RPC_URL_31342: `http://127.0.0.1:${closedPort}`,
        RPC_URL_31343: flaky.url,
        RPC_URL_31344: freezable.url,
        // the devnet of chain 31337, configured as chain 31345: a node on the wrong chain
        RPC_URL_31345: live.url,
      },
    })
    stops.push(service.stop)

    project.provide('integration', {
      api: service.url,
      nodeUrl: live.url,
      legacyNodeUrl: legacy.url,
      mainProxy: mainProxy.url,
      coldProxy: coldProxy.url,
      credentials,
      flakyNode: flaky.url,
      freezablePid: freezable.process.pid!,
      logFile,
      rpcUrls: [live.url, mainProxy.url, cold.url, coldProxy.url, legacy.url, garbage.url, hang.url, flaky.url, freezable.url],
      chains: {
        live: 31337,
        cold: 31338,
        legacy: 31339,
        garbage: 31340,
        hang: 31341,
        down: 31342,
        flaky: 31343,
        freezable: 31344,
        wrongChain: 31345,
        unlisted: 6001,
      },
      rpcTimeoutMs,
      maxStaleSeconds,
      metricsToken,
    })
  } catch (err) {
    await teardown()
    throw err
  }
  return teardown
}
