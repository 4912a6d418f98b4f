// Issue 44 part 2 seen from outside: `next start` against fake nodes of the fast chains (tests/support/fast-chain-node.ts)
// that mine on the wall clock at their own cadence (BSC 450 ms, opBNB and Arbitrum 250 ms, Monad 300 ms, Sei 500 ms,
// Sonic, HyperEVM and MegaETH 1 s), under the chains' own ids so that each chain's row applies. Every expectation is
// computed here from what the fake node serves (its blocks, its eth_gasPrice / eth_bigBlockGasPrice, its predeploys)
// by the chains' rules as the research states them, not by the service's code.
import { parseGwei } from 'viem'
import { afterAll, beforeAll, describe, expect, test } from 'vitest'
import { startService, type Service } from '@/scripts/devnet/service'
import { startFastChainNode, type FastChain, type FastChainNode } from '../support/fast-chain-node'
import { ARB_MINIMUM, chains, HYPER_BIG_PRICE, SEI_GAS_PRICE } from '../support/fast-chains'
import { basic, eventually } from './helpers'

const CRED: [string, string] = ['fast', 'fast-chains-secret-of-the-test']
const LEVELS = ['low', 'medium', 'high'] as const
const GWEI = 1_000_000_000n
/** How many distinct blocks each answer is checked at, and how long the chains get to reach them. */
const BLOCKS = 2
const DEADLINE_MS = 60_000

let service: Service
const nodes: Record<string, FastChainNode> = {}

beforeAll(async () => {
  const env: Record<string, string> = {
    API_KEYS: CRED.join(':'),
    RATE_LIMITS: `${CRED[0]}=0`,
    USE_PUBLIC_RPCS: 'false',
    REQUEST_LOG: 'false',
    RPC_TIMEOUT_MS: '3000',
  }
  for (const [name, chain] of Object.entries(chains)) {
    nodes[name] = await startFastChainNode(chain)
    env[`RPC_URL_${chain.chainId}`] = nodes[name]!.url
  }
  service = await startService({ env })
}, 180_000)

afterAll(async () => {
  await service?.stop()
  await Promise.all(Object.values(nodes).map((n) => n.close()))
})

type Level = Record<string, string | number>
type Body = Record<string, unknown> & Partial<Record<(typeof LEVELS)[number], Level>>

async function get(chainId: number, path: string) {
  const res = await fetch(`${service.url}/${path.startsWith('gasprices') ? '' : `networks/${chainId}/`}${path}`, {
    headers: { authorization: basic(CRED) },
  })
  return { status: res.status, headers: res.headers, body: (await res.json()) as Body }
}

/** Asks `path` until its answers have named BLOCKS distinct blocks, checking each with `check`; a deadline, no fixed sleep. */
async function atBlocks(chainId: number, path: string, check: (body: Body, block: number, interval: number) => void) {
  const seen: number[] = []
  await eventually(
    async () => {
      const res = await get(chainId, path)
      expect(res.status, JSON.stringify(res.body)).toBe(200)
      const block = Number(res.headers.get('x-block-number'))
      if (!seen.includes(block)) {
        check(res.body, block, Number(res.headers.get('x-block-interval-ms')))
        seen.push(block)
      }
      return seen.length >= BLOCKS ? true : undefined
    },
    `chain ${chainId} ${path}: answers naming ${BLOCKS} distinct blocks`,
    DEADLINE_MS,
    150,
  )
}

const g = (v: unknown) => parseGwei(String(v))
const tipOf = (l: Level) => g(l.suggestedMaxPriorityFeePerGas ?? l.maxPriorityFeePerGas)
const maxFeeOf = (l: Level) => g(l.suggestedMaxFeePerGas ?? l.maxFeePerGas)
/** x × (1 + ppm/10⁶), rounded up. */
const grown = (x: bigint, ppm: bigint) => (x * (1_000_000n + ppm) + 999_999n) / 1_000_000n
/** The lowest tip above 2 wei any block of the fake chain carries (every block is alike). */
const lowestTip = (chain: FastChain) =>
  chain
    .block(0)
    .tips.filter((t) => t > 2n)
    .reduce((a, b) => (b < a ? b : a))
/** Waits as the levels promise them: 1–6, 1–3, 1–2 blocks of the measured interval. */
function expectWaits(body: Body, interval: number) {
  for (const [level, blocks] of [
    ['low', 6],
    ['medium', 3],
    ['high', 2],
  ] as const) {
    expect(body[level]!.minWaitTimeEstimate).toBe(interval)
    expect(body[level]!.maxWaitTimeEstimate).toBe(interval * blocks)
  }
}

/** gasPrices of a block, each level's price `base` plus the tip suggestedGasFees gives the level at the same block. */
async function expectLegacyPrices(chainId: number, base: bigint) {
  const [fees, prices] = await eventually(async () => {
    const [a, b] = await Promise.all([get(chainId, 'suggestedGasFees'), get(chainId, 'gasPrices')])
    return a.headers.get('x-block-number') === b.headers.get('x-block-number') ? [a, b] : undefined
  }, 'suggestedGasFees and gasPrices of one block')
  for (const [level, key] of [
    ['low', 'SafeGasPrice'],
    ['medium', 'ProposeGasPrice'],
    ['high', 'FastGasPrice'],
  ] as const) {
    expect(g(prices.body[key])).toBe(base + tipOf(fees.body[level]!))
  }
}

describe('BNB Smart Chain (56)', () => {
  test('behavior: max fee = tip at every level, no tip below the lowest tip the blocks accepted, waits from the ~450 ms cadence', async () => {
    await atBlocks(56, 'suggestedGasFees', (body, _, interval) => {
      expect(body.estimatedBaseFee).toBe('0')
      for (const level of LEVELS) {
        expect(maxFeeOf(body[level]!)).toBe(tipOf(body[level]!))
        // the policy's 0.1 gwei floor is under what every block accepted (0.3 gwei): the blocks' floor holds
        expect(tipOf(body[level]!)).toBe(lowestTip(chains.bsc!))
      }
      expect(Math.abs(interval - 450)).toBeLessThanOrEqual(5)
      expectWaits(body, interval)
    })
  })

  test('behavior: transactionCost and the Blocknative ladder carry the same rule', async () => {
    await atBlocks(56, 'transactionCost?gas=21000', (body) => {
      for (const level of LEVELS) {
        expect(maxFeeOf(body[level]!)).toBe(tipOf(body[level]!))
        expect(g(body[level]!.fee)).toBe(21_000n * lowestTip(chains.bsc!))
      }
    })
    const res = await get(56, 'gasprices/blockprices?chainid=56')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const prices = (res.body.blockPrices as { estimatedPrices: { maxFeePerGas: number; maxPriorityFeePerGas: number }[] }[])[0]!
    for (const p of prices.estimatedPrices) {
      expect(p.maxFeePerGas).toBe(p.maxPriorityFeePerGas)
      expect(p.maxPriorityFeePerGas).toBeGreaterThanOrEqual(0.3)
    }
  })
})

describe('opBNB (204)', () => {
  test('behavior: base fee 0, max fee = tip; transactionCost is gas × tip plus the GasPriceOracle L1 data fee', async () => {
    await atBlocks(204, 'transactionCost?gas=21000&txBytes=161', (body) => {
      expect(g(body.l1DataFee)).toBe(111_214n)
      for (const level of LEVELS) {
        const tip = tipOf(body[level]!)
        expect(maxFeeOf(body[level]!)).toBe(tip)
        expect(g(body[level]!.fee)).toBe(21_000n * tip + 111_214n)
      }
    })
  })
})

describe('Monad (143)', () => {
  test("behavior: each cap is Monad's own rise (×1.03636) on the repeated head base fee, one block more for the unknown next, never EIP-1559's 12.5%", async () => {
    await atBlocks(143, 'suggestedGasFees', (body, _, interval) => {
      const next = g(body.estimatedBaseFee)
      expect(next).toBe(100n * GWEI)
      for (const level of LEVELS) {
        const l = body[level]!
        // the headroom floor (one block at e^(1/28)) and the block the repeated next base fee hides
        expect(maxFeeOf(l) - tipOf(l)).toBe(grown(grown(next, 36_360n), 36_360n))
        // tips from the blocks (0.5–1 gwei), not the node's hard-coded 2 gwei
        expect(tipOf(l) >= GWEI / 2n && tipOf(l) < 2n * GWEI).toBe(true)
      }
      expect(Math.abs(interval - 300)).toBeLessThanOrEqual(5)
      expectWaits(body, interval)
    })
  })

  test("behavior: legacy prices (gasPrices, Blocknative's price) are the next base fee one block on (×1.03636, the head's repeated) plus the tip", async () => {
    await expectLegacyPrices(143, grown(100n * GWEI, 36_360n))
    const res = await get(143, 'gasprices/blockprices?chainid=143')
    expect(res.status, JSON.stringify(res.body)).toBe(200)
    const prices = (res.body.blockPrices as { estimatedPrices: { price: number; maxPriorityFeePerGas: number }[] }[])[0]!
    const next = Number(grown(100n * GWEI, 36_360n)) / 1e9
    for (const p of prices.estimatedPrices) expect(p.price).toBeCloseTo(next + p.maxPriorityFeePerGas, 6)
  })

  test('behavior: transactionCost says the gas limit is charged; fee is that gas at the likely price', async () => {
    await atBlocks(143, 'transactionCost?gas=50000', (body) => {
      expect(body.gasCharged).toBe('limit')
      for (const level of LEVELS) {
        const l = body[level]!
        const likely = 100n * GWEI + tipOf(l)
        expect(g(l.fee)).toBe(50_000n * (likely < maxFeeOf(l) ? likely : maxFeeOf(l)))
      }
    })
  })
})

describe('Sonic (146)', () => {
  // the blocks' own base fee (50 gwei); its eth_feeHistory reports MinGasPrice, 1.10 × that, as every base fee
  const headBase = () => chains.sonic!.block(0).baseFee
  const floor = () => (headBase() * 110n + 99n) / 100n

  test("behavior: every level's max fee − tip is at least 1.10 × the head block's base fee, taken once (the node's history already holds the 1.10)", async () => {
    await atBlocks(146, 'suggestedGasFees', (body) => {
      expect(g(body.estimatedBaseFee)).toBe((headBase() * 110n) / 100n)
      for (const level of LEVELS) {
        const cap = maxFeeOf(body[level]!) - tipOf(body[level]!)
        expect(cap >= floor() && cap < (floor() * 110n) / 100n).toBe(true)
      }
    })
  })

  test("behavior: a legacy price (its fee cap too: the pool refuses under 1.05 × base) is 1.10 × the head's base fee plus the tip, what its own eth_gasPrice says", async () => {
    await expectLegacyPrices(146, floor())
  })

  test("behavior: transactionCost's likely fee is at the blocks' own base fee (the header's), not the history's 1.10 ×", async () => {
    await atBlocks(146, 'transactionCost?gas=21000', (body) => {
      for (const level of LEVELS) {
        const l = body[level]!
        expect(g(l.fee)).toBe(21_000n * (headBase() + tipOf(l)))
        expect(g(l.maxFee)).toBe(21_000n * maxFeeOf(l))
      }
    })
  })
})

describe('Sei (1329)', () => {
  test('behavior: every max fee and legacy price is at least what its eth_gasPrice says, read in the same batch as the window', async () => {
    await atBlocks(1329, 'suggestedGasFees', (body) => {
      for (const level of LEVELS) expect(maxFeeOf(body[level]!) >= SEI_GAS_PRICE).toBe(true)
      expect(maxFeeOf(body.low!)).toBe(SEI_GAS_PRICE)
    })
    const prices = await get(1329, 'gasPrices')
    for (const key of ['SafeGasPrice', 'ProposeGasPrice', 'FastGasPrice']) expect(g(prices.body[key]) >= SEI_GAS_PRICE).toBe(true)
    const calls = nodes.sei!.calls
    expect(calls.filter((m) => m === 'eth_gasPrice').length).toBe(calls.filter((m) => m === 'eth_feeHistory').length)
  })
})

describe('HyperEVM (999)', () => {
  test('behavior: the small lane by default, tips "0"', async () => {
    await atBlocks(999, 'suggestedGasFees', (body) => {
      for (const level of LEVELS) expect(body[level]!.suggestedMaxPriorityFeePerGas).toBe('0')
    })
  })

  test('behavior: ?lane=big: priced from eth_bigBlockGasPrice (+12.5% for one step), tips "0", waits up to 60 s; gasPrices and transactionCost too', async () => {
    await atBlocks(999, 'suggestedGasFees?lane=big', (body, _, interval) => {
      expect(g(body.estimatedBaseFee)).toBe(HYPER_BIG_PRICE)
      for (const level of LEVELS) {
        expect(body[level]).toEqual({
          suggestedMaxPriorityFeePerGas: '0',
          suggestedMaxFeePerGas: '2.25',
          minWaitTimeEstimate: interval,
          maxWaitTimeEstimate: 60_000,
        })
      }
    })
    const prices = await get(999, 'gasPrices?lane=big')
    expect(prices.body).toEqual({ SafeGasPrice: '2', ProposeGasPrice: '2', FastGasPrice: '2' })
    const cost = await get(999, 'transactionCost?gas=21000&lane=big')
    expect(cost.status).toBe(200)
    for (const level of LEVELS) {
      expect(g(cost.body[level]!.fee)).toBe(21_000n * HYPER_BIG_PRICE)
      expect(g(cost.body[level]!.maxFee)).toBe((21_000n * HYPER_BIG_PRICE * 9n) / 8n)
    }
    const calls = nodes.hyper!.calls
    expect(calls.filter((m) => m === 'eth_bigBlockGasPrice').length).toBe(calls.filter((m) => m === 'eth_feeHistory').length)
  })

  test("behavior: a big-lane transaction may use a big block's 30M gas; the small lane stops at the head's 2M", async () => {
    expect((await get(999, 'transactionCost?gas=5000000&lane=big')).status).toBe(200)
    for (const path of ['transactionCost?gas=5000000', 'transactionCost?gas=30000001&lane=big']) {
      const res = await get(999, path)
      expect(res.status).toBe(400)
      expect(String(res.body.message)).toMatch(/'gas'/)
    }
  })

  test.each([
    [999, 'suggestedGasFees?lane=huge'],
    [999, 'gasPrices?lane=big&lane=small'],
    [999, 'transactionCost?gas=21000&lane=BIG'],
    [56, 'suggestedGasFees?lane=big'],
    [1, 'transactionCost?gas=21000&lane=big'],
  ])('error: chain %i, %s: 400 naming lane', async (chainId, path) => {
    const res = await get(chainId, path)
    expect(res.status).toBe(400)
    expect(String(res.body.message)).toMatch(/'lane'/)
  })

  test("behavior: lane=small on a chain with one lane is that chain's answer", async () => {
    const [a, b] = await eventually(async () => {
      const [x, y] = await Promise.all([get(56, 'suggestedGasFees?lane=small'), get(56, 'suggestedGasFees')])
      return x.headers.get('x-block-number') === y.headers.get('x-block-number') ? [x, y] : undefined
    }, 'two answers of the same block')
    expect(a.status).toBe(200)
    expect(a.body).toEqual(b.body)
  })
})

describe('MegaETH (4326)', () => {
  test('behavior: waits from its measured ~1 s block cadence', async () => {
    await atBlocks(4326, 'suggestedGasFees', (body, _, interval) => {
      expect(Math.abs(interval - 1_000)).toBeLessThanOrEqual(5)
      expectWaits(body, interval)
    })
  })
})

describe('Arbitrum', () => {
  test("behavior: One (getCollectTips() false): tips 0; every max fee at least ArbGasInfo.getMinimumGasPrice(), the ladder's too", async () => {
    await atBlocks(42161, 'suggestedGasFees', (body) => {
      for (const level of LEVELS) {
        expect(tipOf(body[level]!)).toBe(0n)
        // the base fee (0.02 gwei) with its headroom stays under the 0.1 gwei minimum: the floor is the max fee
        expect(maxFeeOf(body[level]!)).toBe(ARB_MINIMUM)
      }
    })
    const res = await get(42161, 'gasprices/blockprices?chainid=42161')
    const prices = (res.body.blockPrices as { estimatedPrices: { maxFeePerGas: number }[] }[])[0]!
    for (const p of prices.estimatedPrices) expect(p.maxFeePerGas).toBeGreaterThanOrEqual(0.1)
  })

  test('behavior: Nova with getCollectTips() true: tips from the blocks (0.01 gwei, what every block accepted)', async () => {
    await atBlocks(42170, 'suggestedGasFees', (body) => {
      for (const level of LEVELS) expect(tipOf(body[level]!)).toBe(lowestTip(chains.nova!))
    })
  })
})

describe('chains without these rules', () => {
  test('behavior: Ethereum reads only the window (no eth_gasPrice, no eth_bigBlockGasPrice, no eth_call)', async () => {
    await atBlocks(1, 'suggestedGasFees', () => {})
    expect(new Set(nodes.ethereum!.calls)).toEqual(new Set(['eth_chainId', 'eth_getBlockByNumber', 'eth_feeHistory']))
  })
})
