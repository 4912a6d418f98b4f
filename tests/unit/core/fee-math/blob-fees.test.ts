import { describe, expect, test } from 'vitest'
import {
  blobBaseFeeAt,
  blobFeeCaps,
  blobFeesOf,
  fakeExponential,
  maxBlobBaseFee,
  maxExcessFor,
  type BlobCapInput,
} from '@/lib/core/fee-math/blob-fees'
import { buildBlobFees } from '@/lib/core/contract/report'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import {
  BLOB_BASE_COST,
  blobForkAt,
  blobScheduleOf,
  GAS_PER_BLOB,
  takesBlobTransactions,
  type BlobFork,
  type BlobSchedule,
} from '@/lib/core/chain-rules/blob-schedule'
import { BlobFeeMarketUnsupportedError, UpstreamBadResponseError } from '@/lib/core/contract/errors'
import { levelHorizon } from '@/lib/core/fee-math/estimator'
import { BlobFeesSchema } from '@/lib/core/contract/schemas'
import type { FeeWindow } from '@/lib/core/types'
import { parseGwei } from '@/lib/core/units'
import { createRandom } from '@/scripts/devnet/traffic-model'

const mainnet = blobScheduleOf(1) as BlobSchedule
const fork = (name: string, s: BlobSchedule = mainnet): BlobFork => s.find((f) => f.name === name)!

// ---- the protocol, written from the EIPs' Python for the brute force (not the code under test) ----

/** EIP-4844 fake_exponential, as its Python: one floor division a term. */
function refFakeExponential(factor: bigint, numerator: bigint, denominator: bigint): bigint {
  let i = 1n
  let output = 0n
  let accum = factor * denominator
  while (accum > 0n) {
    output += accum
    accum = (accum * numerator) / (denominator * i)
    i += 1n
  }
  return output / denominator
}
const refFee = (excess: bigint, f: BlobFork) => refFakeExponential(1n, excess, f.params.updateFraction)

/** A block's header fields the blob rules read. */
type Header = { excess: bigint; used: bigint; baseFee: bigint }

/**
 * EIP-4844 calc_excess_blob_gas with EIP-7918's if-clause where the block's fork has it; the block's
 * own fork (its blobSchedule) throughout, as EIP-7918 says for the first block after a fork.
 */
function refExcess(parent: Header, f: BlobFork): bigint {
  const target = BigInt(f.params.target) * GAS_PER_BLOB
  if (parent.excess + parent.used < target) return 0n
  if (f.reservePrice && BLOB_BASE_COST * parent.baseFee > GAS_PER_BLOB * refFee(parent.excess, f)) {
    return parent.excess + (parent.used * BigInt(f.params.max - f.params.target)) / BigInt(f.params.max)
  }
  return parent.excess + parent.used - target
}

/** A deterministic pseudo-random sequence (mulberry32, the devnet's), so a failure can be replayed. */
const random = createRandom

/**
 * The blob base fees of blocks head+1 … head+`blocks`, brute force: block head+1 has excess `e1`;
 * each later block's excess follows from its parent's by the protocol, the parent carrying
 * `used(k)` blobs (at most its fork's max) at execution base fee `baseFee(k)`. `forkOf(k)` is block
 * head+k's fork.
 */
function simulate(
  e1: bigint,
  blocks: number,
  forkOf: (k: number) => BlobFork,
  used: (k: number, f: BlobFork) => number,
  baseFee: (k: number) => bigint,
): bigint[] {
  const fees: bigint[] = []
  let header: Header = { excess: e1, used: 0n, baseFee: 0n }
  for (let k = 1; k <= blocks; k++) {
    const f = forkOf(k)
    if (k > 1) header = { excess: refExcess(header, f), used: 0n, baseFee: 0n }
    fees.push(refFee(header.excess, f))
    header = { ...header, used: BigInt(Math.min(used(k, f), f.params.max)) * GAS_PER_BLOB, baseFee: baseFee(k) }
  }
  return fees
}
const max = (xs: bigint[]) => xs.reduce((a, b) => (b > a ? b : a))
const full = (_k: number, f: BlobFork) => f.params.max

/** The cap input of a chain at the head's fork, 12-s blocks by default. */
const capInput = (next: bigint, f: BlobFork, s: BlobSchedule = mainnet, blockIntervalMs = 12_000): BlobCapInput => ({
  nextBlobBaseFee: next,
  schedule: s,
  headTimestamp: f.activatesAt + 3_600,
  blockIntervalMs,
})

describe('fakeExponential', () => {
  // go-ethereum consensus/misc/eip4844/eip4844_test.go TestFakeExponential
  test.each([
    [1n, 0n, 1n, 1n],
    [38493n, 0n, 1000n, 38493n],
    [0n, 1234n, 2345n, 0n],
    [1n, 2n, 1n, 6n],
    [1n, 4n, 2n, 6n],
    [1n, 3n, 1n, 16n],
    [1n, 6n, 2n, 18n],
    [1n, 4n, 1n, 49n],
    [1n, 8n, 2n, 50n],
    [10n, 8n, 2n, 542n],
    [11n, 8n, 2n, 596n],
    [1n, 5n, 1n, 136n],
    [1n, 5n, 2n, 11n],
    [2n, 5n, 2n, 23n],
    [1n, 50_000_000n, 2_225_652n, 5_709_098_764n],
  ])('fake_exponential(%i, %i, %i) = %i', (factor, numerator, denominator, want) => {
    expect(fakeExponential(factor, numerator, denominator)).toBe(want)
  })

  // go-ethereum TestCalcBlobFee (Cancun's fraction)
  test.each([
    [0n, 1n],
    [2_314_057n, 1n],
    [2_314_058n, 2n],
    [10n * 1024n * 1024n, 23n],
  ])("blobBaseFeeAt(%i) under Cancun's fraction = %i wei", (excess, fee) => {
    expect(blobBaseFeeAt(excess, 3_338_477n)).toBe(fee)
  })
})

describe('maxExcessFor', () => {
  test("default: the largest excess of a blob base fee (go-ethereum's 1 wei up to excess 2,314,057 under Cancun)", () => {
    expect(maxExcessFor(1n, 3_338_477n)).toBe(2_314_057n)
    expect(maxExcessFor(2n, 3_338_477n)).toBeGreaterThanOrEqual(2_314_058n)
  })

  test.each([1n, 2n, 23n, 1_000n, 21_689n, 1_000_000_000n, 123_456_789_012n, 2n ** 100n])(
    'behavior: for %i wei under each fork, the excess charges at most it and one more gas charges more',
    (fee) => {
      for (const name of ['Cancun', 'Prague', 'BPO1', 'BPO2']) {
        const fraction = fork(name).params.updateFraction
        const e = maxExcessFor(fee, fraction)
        expect(refFakeExponential(1n, e, fraction) <= fee).toBe(true)
        expect(refFakeExponential(1n, e + 1n, fraction) > fee).toBe(true)
      }
    },
  )

  test('error: a fee below the 1 wei minimum', () => {
    expect(() => maxExcessFor(0n, 3_338_477n)).toThrow(RangeError)
  })
})

describe('maxBlobBaseFee: the cap against a brute-force simulation of the next blocks', () => {
  const forks = ['Cancun', 'Prague', 'Osaka', 'BPO1', 'BPO2'] as const
  const excesses = [0n, 1_000_000n, 2_314_057n, 5_007_716n, 40_000_000n, 60_123_457n, 250_000_000n]

  test.each(forks)('%s: full blocks from the excess the next blob base fee implies reach the cap exactly; never above', (name) => {
    const f = fork(name)
    for (const e1 of excesses) {
      const next = refFee(e1, f)
      for (const blocks of [1, 2, 5, 9, 13]) {
        const cap = maxBlobBaseFee(capInput(next, f), blocks)
        // a low execution base fee: no reserve price in play (the plain EIP-4844 rule)
        const fromTrue = simulate(
          e1,
          blocks,
          () => f,
          full,
          () => 0n,
        )
        expect(max(fromTrue) <= cap).toBe(true)
        // the worst excess consistent with the next fee, then every block full: exactly the cap
        const worst = simulate(
          maxExcessFor(next, f.params.updateFraction),
          blocks,
          () => f,
          full,
          () => 0n,
        )
        expect(worst.at(-1)).toBe(cap)
        expect(worst[0]).toBe(next)
      }
    }
  })

  test.each(forks)('%s: any blob use, any execution base fee (EIP-7918 regimes included): never above the cap', (name) => {
    const f = fork(name)
    const rnd = random(7)
    for (let trial = 0; trial < 200; trial++) {
      const e1 = BigInt(Math.floor(rnd() * 300_000_000))
      const next = refFee(e1, f)
      const blocks = 1 + Math.floor(rnd() * 13)
      const uses = Array.from({ length: blocks + 1 }, () => Math.floor(rnd() * (f.params.max + 1)))
      // execution base fees from 1 wei to 1,000 gwei: the reserve price above and below the blob price
      const fees = Array.from({ length: blocks + 1 }, () => BigInt(Math.floor(10 ** (rnd() * 12))))
      const path = simulate(
        e1,
        blocks,
        () => f,
        (k) => uses[k] ?? 0,
        (k) => fees[k] ?? 0n,
      )
      expect(max(path) <= maxBlobBaseFee(capInput(next, f), blocks)).toBe(true)
    }
  })

  test('EIP-7918 (Osaka, BPO1, BPO2): under the reserve price the fee never falls and rises at most as fast: the cap holds and is never below the next fee', () => {
    for (const name of ['Osaka', 'BPO1', 'BPO2']) {
      const f = fork(name)
      // 100 gwei execution base fee: the reserve (BLOB_BASE_COST × base fee) is far above the blob price
      const reserve = () => 100_000_000_000n
      for (const e1 of [0n, 1_000_000n, 20_000_000n, 60_000_000n]) {
        const next = refFee(e1, f)
        const cap = maxBlobBaseFee(capInput(next, f), 9)
        expect(BLOB_BASE_COST * reserve() > GAS_PER_BLOB * cap).toBe(true)
        // empty blocks: the excess does not fall (the rule's floor), so the fee stays; full blocks: the
        // excess grows by used × (max − target) / max, the same largest step
        const empty = simulate(
          e1,
          9,
          () => f,
          () => 0,
          reserve,
        )
        expect(empty.every((fee) => fee >= next && fee <= cap)).toBe(true)
        expect(empty.at(-1)).toBe(next)
        const busy = simulate(e1, 9, () => f, full, reserve)
        expect(busy.every((fee) => fee >= next)).toBe(true)
        expect(max(busy) <= cap).toBe(true)
      }
    }
  })

  test('behavior: a fork that activates within the blocks: the cap covers the blocks after it, wherever it lands', () => {
    // mainnet, Osaka's head 40 s before BPO1: blocks of 12 s, the next ones may run either fork
    const osaka = fork('Osaka')
    const bpo1 = fork('BPO1')
    const head = bpo1.activatesAt - 40
    for (const e0 of [0n, 10_000_000n, 45_000_000n]) {
      // the head itself full; the node prices the next block with the head's fork (go-ethereum feehistory.go)
      const e1 = refExcess({ excess: e0, used: BigInt(osaka.params.max) * GAS_PER_BLOB, baseFee: 0n }, osaka)
      const next = refFee(e1, osaka)
      const input = { nextBlobBaseFee: next, schedule: mainnet, headTimestamp: head, blockIntervalMs: 12_000 }
      for (const blocks of [1, 5, 9]) {
        const cap = maxBlobBaseFee(input, blocks)
        for (let switchAt = 1; switchAt <= blocks + 1; switchAt++) {
          const forkOf = (k: number) => (k >= switchAt ? bpo1 : osaka)
          // block head+1 under BPO1 has its excess from the head under BPO1's target
          const first = switchAt === 1 ? refExcess({ excess: e0, used: BigInt(osaka.params.max) * GAS_PER_BLOB, baseFee: 0n }, bpo1) : e1
          expect(max(simulate(first, blocks, forkOf, full, () => 0n)) <= cap).toBe(true)
        }
      }
    }
  })

  test('behavior: a fork whose update fraction falls (the fee of an excess jumps up) is covered too', () => {
    // go-ethereum's DefaultBPO3BlobConfig (21/32, 20609697) then DefaultBPO4BlobConfig (14/21, 13739630)
    const bpo3: BlobFork = {
      name: 'BPO3',
      activatesAt: 1_000,
      params: { target: 21, max: 32, updateFraction: 20_609_697n },
      reservePrice: true,
    }
    const bpo4: BlobFork = {
      name: 'BPO4',
      activatesAt: 1_060,
      params: { target: 14, max: 21, updateFraction: 13_739_630n },
      reservePrice: true,
    }
    const schedule = [bpo3, bpo4]
    for (const e1 of [0n, 30_000_000n, 90_000_000n]) {
      const next = refFee(e1, bpo3)
      const cap = maxBlobBaseFee({ nextBlobBaseFee: next, schedule, headTimestamp: 1_030, blockIntervalMs: 12_000 }, 9)
      for (let switchAt = 2; switchAt <= 10; switchAt++) {
        const path = simulate(
          e1,
          9,
          (k) => (k >= switchAt ? bpo4 : bpo3),
          full,
          () => 0n,
        )
        expect(max(path) <= cap).toBe(true)
      }
    }
  })

  test('behavior: with no fork in reach, the cap is the plain full-block path (no room added for forks)', () => {
    const f = fork('BPO2')
    // a fee of ~2.7e7 wei, where the integer rounding is negligible
    const next = refFee(200_000_000n, f)
    const cap = maxBlobBaseFee(capInput(next, f), 9)
    expect(cap).toBe(refFee(maxExcessFor(next, f.params.updateFraction) + 8n * 7n * GAS_PER_BLOB, f))
    // about ×1.0817 a block for 8 blocks: ×1.87
    const ratio = Number(cap) / Number(next)
    expect(ratio).toBeGreaterThan(1.86)
    expect(ratio).toBeLessThan(1.88)
  })
})

describe('blobFeeCaps', () => {
  test.each([12_000, 2_000, 1_000, 450])(
    'default: every level at or above the next blob base fee, low ≤ medium ≤ high, each covering its own blocks (interval %i ms)',
    (interval) => {
      for (const name of ['Cancun', 'BPO2']) {
        const f = fork(name)
        for (const next of [1n, 17n, 21_689n, 3_000_000_000n]) {
          const input = capInput(next, f, mainnet, interval)
          const caps = blobFeeCaps(input)
          expect(caps.low >= next).toBe(true)
          expect(caps.low <= caps.medium && caps.medium <= caps.high).toBe(true)
          for (const level of ['low', 'medium', 'high'] as const) {
            expect(caps[level] >= maxBlobBaseFee(input, levelHorizon(level, interval))).toBe(true)
          }
        }
      }
    },
  )

  test("behavior: with protocol bounds, low's blocks reach furthest, so every level gets low's cap", () => {
    const f = fork('BPO2')
    const caps = blobFeeCaps(capInput(1_000_000_000n, f))
    expect(caps.medium).toBe(caps.low)
    expect(caps.high).toBe(caps.low)
    // mainnet's 12-s blocks: 3 blocks of answer age and low's 6, the first known: 8 full-block rises
    expect(caps.low).toBe(maxBlobBaseFee(capInput(1_000_000_000n, f), 9))
  })
})

/** A window with blob fields (wei), 12-s blocks; chain 1 at BPO2 by default. */
function blobWindow(over: Partial<FeeWindow> = {}): FeeWindow {
  const n = 5
  return {
    chainId: 1,
    oldestBlock: 100,
    headNumber: 104,
    headTimestamp: 1_780_000_000,
    blockIntervalMs: 12_000,
    intervalAnchor: null,
    baseFeePerGas: Array(n).fill('1000000000'),
    nextBaseFeePerGas: '1000000000',
    gasUsedRatio: Array(n).fill(0.5),
    rewardPercentiles: [0, 50, 100],
    reward: Array(n).fill(['0', '0', '0']),
    baseFeePerBlobGas: ['21000', '21500', '22000', '22400', '23000'],
    nextBaseFeePerBlobGas: '23461',
    blobGasUsedRatio: [0, 1 / 3, 2 / 3, 1, 0.5],
    fetchedAt: 0,
    ...over,
  }
}

describe('blobFeesOf and buildBlobFees', () => {
  test("default: mainnet at BPO2: the node's next blob base fee, the levels, the window's blob fullness, 14/21", () => {
    const body = buildBlobFees(blobWindow())
    expect(BlobFeesSchema.parse(body)).toEqual(body)
    expect(Object.keys(body)).toEqual([
      'blockNumber',
      'estimatedBlobBaseFee',
      'low',
      'medium',
      'high',
      'blobGasUsedRatio',
      'blobTarget',
      'blobMax',
      'forecast',
    ])
    // five blocks of history: too short a window, the bound stands in for the caps and the forecast
    expect(body.forecast.method).toBe('bound')
    expect(body.forecast.horizons[0]!.p50).toBe(body.estimatedBlobBaseFee)
    expect(body.blockNumber).toBe(104)
    expect(body.estimatedBlobBaseFee).toBe('0.000023461')
    expect(body.blobGasUsedRatio).toEqual([0, 1 / 3, 2 / 3, 1, 0.5])
    expect([body.blobTarget, body.blobMax]).toEqual([14, 21])
    const input = { nextBlobBaseFee: 23_461n, schedule: mainnet, headTimestamp: 1_780_000_000, blockIntervalMs: 12_000 }
    expect(parseGwei(body.low.suggestedMaxFeePerBlobGas)).toBe(blobFeeCaps(input).low)
    expect(parseGwei(body.high.suggestedMaxFeePerBlobGas)).toBe(blobFeeCaps(input).high)
  })

  test("behavior: with 500 blocks of blob history the levels are sized by the forecast: under the protocol bound, at least one full block's rise", () => {
    const n = 500
    // a quiet market: 0 to 7 blobs a block of BPO2's 21, the execution base fee steady at 1 gwei
    const ratios = Array.from({ length: n }, (_, i) => (i % 8) / 21)
    const window = blobWindow({
      oldestBlock: 100,
      headNumber: 100 + n - 1,
      baseFeePerGas: Array(n).fill('1000000000'),
      gasUsedRatio: Array(n).fill(0.5),
      reward: Array(n).fill(['0', '0', '0']),
      baseFeePerBlobGas: Array(n).fill('23461'),
      blobGasUsedRatio: ratios,
    })
    const body = buildBlobFees(window)
    expect(body.forecast.method).toBe('window')
    const bounds = blobFeeCaps({ nextBlobBaseFee: 23_461n, schedule: mainnet, headTimestamp: 1_780_000_000, blockIntervalMs: 12_000 })
    const oneFullBlock = parseGwei(body.forecast.horizons[1]!.bound)
    const levels = (['low', 'medium', 'high'] as const).map((l) => parseGwei(body[l].suggestedMaxFeePerBlobGas))
    for (const [i, l] of (['low', 'medium', 'high'] as const).entries()) {
      expect(levels[i]! < bounds[l]).toBe(true)
      expect(levels[i]! >= oneFullBlock).toBe(true)
    }
    expect(levels[0]! <= levels[1]! && levels[1]! <= levels[2]!).toBe(true)
    // base fees the forecast cannot use (a shorter list, zeros) are held, never an error
    expect(() => buildBlobFees({ ...window, baseFeePerGas: Array(n).fill('0') })).not.toThrow()
    expect(() => buildBlobFees({ ...window, baseFeePerGas: Array(n - 1).fill('1000000000') })).not.toThrow()
  })

  test.each([
    ['Cancun', 1_720_000_000, [3, 6]],
    ['Prague', 1_750_000_000, [6, 9]],
    ['Osaka', 1_765_000_000, [6, 9]],
    ['BPO1', 1_766_000_000, [10, 15]],
  ] as const)("behavior: the head's fork sets the target and maximum (%s)", (_, headTimestamp, [target, max]) => {
    const body = buildBlobFees(blobWindow({ headTimestamp }))
    expect([body.blobTarget, body.blobMax]).toEqual([target, max])
  })

  test("behavior: a chain the tables do not name (anvil) has blobs when its node reports them: anvil's schedule, 6/9", () => {
    const body = buildBlobFees(blobWindow({ chainId: 31337, nextBaseFeePerBlobGas: '1' }))
    expect(body.estimatedBlobBaseFee).toBe('0.000000001')
    expect([body.blobTarget, body.blobMax]).toEqual([6, 9])
  })

  const withoutBlobFields = { baseFeePerBlobGas: undefined, nextBaseFeePerBlobGas: undefined, blobGasUsedRatio: undefined }
  test.each([
    ['an OP-stack chain whose node reports 1-wei blob fees', { chainId: 10 }],
    ['Polygon PoS', { chainId: 137 }],
    ['Arbitrum One with zero blob fields', { chainId: 42161, nextBaseFeePerBlobGas: '0' }],
    ['an unknown chain whose node reports none', { chainId: 31337, ...withoutBlobFields }],
    ['an unknown chain whose node reports 0 (no blobs yet)', { chainId: 31337, nextBaseFeePerBlobGas: '0' }],
    ['mainnet before Cancun', { headTimestamp: 1_700_000_000 }],
    ['a chain without EIP-1559', { chainId: 31337, legacy: true as const }],
  ])('error: %s has no blob fees (400)', (_, over) => {
    expect(() => blobFeesOf(blobWindow(over))).toThrow(BlobFeeMarketUnsupportedError)
    expect(() => blobFeesOf(blobWindow(over))).toThrow(/carries no blobs/)
  })

  test.each([
    // an OP-stack chain no table names (found by its predeploys: Unichain, Ink, …), its node answering 1-wei blob fees
    [130, 'op-stack'],
    [204, 'opbnb'],
    [143, 'monad'],
    [146, 'sonic'],
  ] as const)(
    'error: chain %i of the %s family, whose pools refuse type-3 transactions, has no blob fees though its node reports them',
    (chainId, family) => {
      const window = blobWindow({ chainId, nextBaseFeePerBlobGas: '1', baseFeePerBlobGas: Array(5).fill('1') })
      expect(() => blobFeesOf(window, chainFeePolicy(chainId, undefined, { opStack: family === 'op-stack' }).family)).toThrow(
        BlobFeeMarketUnsupportedError,
      )
      expect(takesBlobTransactions(chainId, family)).toBe(false)
      // the same window of a devnet no table names: its node decides, and it reports blobs
      expect(blobFeesOf({ ...window, chainId: 31337 }, 'default').nextBlobBaseFee).toBe(1n)
    },
  )

  test('error: a chain with blobs whose node reports no blob fields is a bad upstream answer (502), not a chain without blobs', () => {
    expect(() => blobFeesOf(blobWindow(withoutBlobFields))).toThrow(UpstreamBadResponseError)
    expect(() => blobFeesOf(blobWindow({ nextBaseFeePerBlobGas: '0' }))).toThrow(UpstreamBadResponseError)
  })

  test('default: a window cached before the blob fields existed still parses and answers what it has', () => {
    const old = blobWindow(withoutBlobFields)
    expect(blobForkAt(mainnet, old.headTimestamp)?.name).toBe('BPO2')
    expect(() => blobFeesOf({ ...old, chainId: 31337 })).toThrow(BlobFeeMarketUnsupportedError)
  })
})
