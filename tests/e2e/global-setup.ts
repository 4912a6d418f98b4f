import { freePort } from '@/scripts/devnet/anvil'
import { startDevnet } from '@/scripts/devnet/devnet'
import { ensureFreshBuild } from '@/scripts/devnet/fresh-build'
import { startService } from '@/scripts/devnet/service'
import { startFakeRpc } from '../support/fake-rpc'
import { fakeNodeChain } from '../support/mainnet-blocks'

/**
 * Starts what the browser tests need and hands it to them through the environment:
 * a devnet with traffic (31337), a quiet second chain (31338, with Ethereum's enforced base-fee bounds,
 * so its forecast has a protocol bound), a chain whose node is down (31342),
 * a chain whose node a test can break and mend (31343, real mainnet blocks on 1 s slots when ../shared/data is there),
 * and `next start` serving them.
 */
export default async function globalSetup() {
  const live = await startDevnet({ chainId: 31337, blockTimeSec: 1, seedBlocks: 520 })
  const quiet = await startDevnet({ chainId: 31338, blockTimeSec: 2, seedBlocks: 30, liveTraffic: false })
  const flaky = await startFakeRpc({ chainId: 31343, ...fakeNodeChain(1) })
  const closed = await freePort()
  await ensureFreshBuild()
  const user = 'e2e'
  const password = 'e2e:secret-of-the-browser-tests'
  const service = await startService({
    env: {
      API_KEYS: `${user}:${password}`,
      USE_PUBLIC_RPCS: 'false',
      // the flaky fake chain replays 2022 mainnet blocks: its head is years old by the wall clock
      MAX_HEAD_AGE_SECONDS: '0',
      RPC_TIMEOUT_MS: '1500',
      RPC_URL_31337: live.url,
      RPC_URL_31338: quiet.url,
      RPC_URL_31342: `http://127.0.0.1:${closed}`,
      RPC_URL_31343: flaky.url,
      // the devnets follow EIP-1559 exactly: the quiet one is served as Ethereum is (bounds enforced)
      CHAIN_FEE_POLICIES: JSON.stringify({ 31338: { enforceBaseFeeBounds: true } }),
    },
  })
  Object.assign(process.env, { E2E_BASE_URL: service.url, E2E_USER: user, E2E_PASSWORD: password, E2E_FLAKY_NODE: flaky.url })
  return async () => {
    await service.stop()
    await flaky.close()
    await quiet.stop()
    await live.stop()
  }
}
