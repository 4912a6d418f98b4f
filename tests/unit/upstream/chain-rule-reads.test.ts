// What the fast chains' rules read beside the window (issue 44 part 2): Arbitrum's getMinimumGasPrice() and
// getCollectTips() in the same aggregate3 as its L1 fee, pinned to the block asked; Sei's eth_gasPrice and
// HyperEVM's eth_bigBlockGasPrice (readChainReads), each left out where the node does not answer.
import { createClient, custom, type Client } from 'viem'
import { describe, expect, test } from 'vitest'
import { UpstreamBadResponseError } from '@/lib/core/contract/errors'
import { readChainReads } from '@/lib/upstream/read-chain-reads'
import { readL1FeeParams } from '@/lib/upstream/read-l1-fee-params'
import { ethCallHandler, MULTICALL3, predeployNode, type Contracts } from './predeploy-node'

const ARB_GAS_INFO = '0x000000000000000000000000000000000000006C'
const ARB_OWNER_PUBLIC = '0x000000000000000000000000000000000000006b'
const PRICES = [224_000_000n, 1_600_000n, 2_000_000_000_000n, 20_000_000n, 0n, 20_000_000n]

describe('Arbitrum: the rule getters travel in the L1 fee read', () => {
  test.each([
    [
      'ArbOS 60 with tips collected',
      { getMinimumGasPrice: 10_000_000n },
      { getCollectTips: true },
      { minimumGasPrice: '10000000', collectTips: true },
    ],
    ['ArbOS 60, tips not collected', { getMinimumGasPrice: 10_000_000n }, { getCollectTips: false }, { minimumGasPrice: '10000000' }],
    [
      'before ArbOS 60 (no ArbOwnerPublic.getCollectTips)',
      { getMinimumGasPrice: 100_000_000n },
      undefined,
      { minimumGasPrice: '100000000' },
    ],
    ['no getMinimumGasPrice', {}, undefined, {}],
  ])('behavior: %s', async (_, gasInfo, ownerPublic, expected) => {
    const contracts: Contracts = {
      [ARB_GAS_INFO]: { getPricesInWei: PRICES, ...gasInfo },
      ...(ownerPublic ? { [ARB_OWNER_PUBLIC]: ownerPublic } : {}),
    }
    const node = predeployNode({ latest: 9, contractsAt: () => contracts })
    const client: Client = createClient({ transport: custom({ request: ethCallHandler(node) }) })
    const params = await readL1FeeParams(client, { chainId: 42161, rule: 'arbitrum', block: 7 })
    expect(params).toEqual({ rule: 'arbitrum', perL1CalldataByte: '1600000', ...expected })
    // one aggregate3, pinned to the block asked, with the three getters
    expect(node.log).toHaveLength(1)
    expect(node.log[0]).toMatchObject({ to: MULTICALL3, tag: '0x7' })
    expect(node.log[0]?.inner).toHaveLength(3)
  })
})

describe('readChainReads', () => {
  const clientAnswering = (answers: Record<string, unknown>, asked: string[]) =>
    createClient({
      transport: custom({
        request: async ({ method }: { method: string }) => {
          asked.push(method)
          if (!(method in answers)) throw Object.assign(new Error(`the method ${method} does not exist`), { code: -32601 })
          return answers[method]
        },
      }),
    })

  test.each([
    ['Sei', ['eth_gasPrice'], { eth_gasPrice: '0x4a817c800' }, { gasPrice: '20000000000' }],
    ['HyperEVM', ['eth_bigBlockGasPrice'], { eth_bigBlockGasPrice: '0x3b9aca00' }, { bigBlockGasPrice: '1000000000' }],
    ['a node without the big lane', ['eth_bigBlockGasPrice'], {}, {}],
    ['a big-lane price that is no quantity', ['eth_bigBlockGasPrice'], { eth_bigBlockGasPrice: 12 }, {}],
  ] as const)('behavior: %s', async (_, reads, answers, expected) => {
    const asked: string[] = []
    expect(await readChainReads(clientAnswering(answers, asked), reads)).toEqual(expected)
    expect(asked).toEqual(reads)
  })

  test("error: Sei's eth_gasPrice is every fee's floor: its failure is the read's, as the node gave it; no quantity is a 502", async () => {
    const limited = createClient({
      transport: custom({
        request: async () => {
          throw Object.assign(new Error('daily request count exceeded, request rate limited'), { code: -32005 })
        },
      }),
    })
    await expect(readChainReads(limited, ['eth_gasPrice'])).rejects.toMatchObject({ code: -32005 })
    await expect(readChainReads(clientAnswering({}, []), ['eth_gasPrice'])).rejects.toThrow(/eth_gasPrice/)
    await expect(readChainReads(clientAnswering({ eth_gasPrice: 12 }, []), ['eth_gasPrice'])).rejects.toThrow(UpstreamBadResponseError)
  })

  test('default: a chain whose rules read nothing asks nothing', async () => {
    const asked: string[] = []
    expect(await readChainReads(clientAnswering({}, asked), [])).toBeUndefined()
    expect(asked).toEqual([])
  })
})
