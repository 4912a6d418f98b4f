import { freePort } from '@/scripts/devnet/anvil'
import { startDevnet } from '@/scripts/devnet/devnet'
import { ensureFreshBuild } from '@/scripts/devnet/fresh-build'
import { startService } from '@/scripts/devnet/service'
import { startFakeRpc } from '../support/fake-rpc'
import { fakeNodeChain } from '../support/mainnet-blocks'
import { opStackAtFloor } from '../support/family-chains'
import { startFlashblocksNode } from '@/scripts/devnet/flashblocks-node'

/**
 * Starts what the browser tests need and hands it to them through the environment:
 * a devnet with traffic (31337), a quiet second chain (31338, with Ethereum's enforced base-fee bounds,
 * so its forecast has a protocol bound), a chain whose node is down (31342),
 * a chain whose node a test can break and mend (31343, real mainnet blocks on 1 s slots when ../shared/data is there),
 * an OP-stack chain at its Jovian floor whose predeploys charge an L1 data fee and an operator fee (8453, Base),
 * a flashblocks chain whose node builds each 1-s block in 5 pieces (130, Unichain's shape; POST /__burst/on fills them),
 * and `next start` serving them.
 */
export default async function globalSetup() {
  const live = await startDevnet({ chainId: 31337, blockTimeSec: 1, seedBlocks: 520 })
  const quiet = await startDevnet({ chainId: 31338, blockTimeSec: 2, seedBlocks: 30, liveTraffic: false })
  const flaky = await startFakeRpc({ chainId: 31343, ...fakeNodeChain(1) })
  const base = await startFakeRpc({
    chainId: 8453,
    ...opStackAtFloor(5_000_000n),
    // Jovian: denominator 250, elasticity 6, minimum base fee 0.005 gwei
    extraData: '0x' + '01' + '000000fa' + '00000006' + (5_000_000).toString(16).padStart(16, '0'),
    // Base's scalars and an L1 at 0.4 gwei with 1-wei blobs; an operator fee of 1 × 100 wei a gas + 0.00001 gwei
    opStackPredeploys: {
      fork: 'jovian',
      l1BaseFee: 400_000_000n,
      blobBaseFee: 1n,
      baseFeeScalar: 2269,
      blobBaseFeeScalar: 1_055_762,
      operatorFeeScalar: 1,
      operatorFeeConstant: 10_000n,
    },
  })
  const pieced = await startFlashblocksNode({ chainId: 130, blockMs: 1_000, pieceMs: 200 })
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
      RPC_URL_8453: base.url,
      RPC_URL_130: pieced.url,
      // the devnets follow EIP-1559 exactly: the quiet one is served as Ethereum is (bounds enforced)
      CHAIN_FEE_POLICIES: JSON.stringify({ 31338: { enforceBaseFeeBounds: true } }),
    },
  })
  Object.assign(process.env, {
    E2E_BASE_URL: service.url,
    E2E_USER: user,
    E2E_PASSWORD: password,
    E2E_FLAKY_NODE: flaky.url,
    E2E_FLASHBLOCKS_NODE: pieced.url,
  })
  return async () => {
    await service.stop()
    await flaky.close()
    await base.close()
    await pieced.close()
    await quiet.stop()
    await live.stop()
  }
}
