import { describe, expect, test } from 'vitest'
import { chainFeePolicy } from '@/lib/core/chain-rules/chain-policy'
import { takesBlobTransactions } from '@/lib/core/chain-rules/blob-schedule'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import {
  levelSuggestions,
  MAX_UINT256,
  minimumReplacement,
  REPLACEMENT_RULES,
  replacementFees,
  ruleThreshold,
  type LevelSuggestion,
  type ReplacementRule,
  type TransactionFees,
} from '@/lib/core/fee-math/replacement'
import { buildFeeReport } from '@/lib/core/contract/report'
import type { Urgency } from '@/lib/core/types'
import { parseGwei } from '@/lib/core/units'
import { flatRewards, makeWindow } from '../../../support/windows'

const GWEI = 1_000_000_000n
const eip1559 = (maxFeePerGas: bigint, maxPriorityFeePerGas: bigint): TransactionFees => ({
  type: 'eip1559',
  maxFeePerGas,
  maxPriorityFeePerGas,
})
const rule = (client: ReplacementRule['client'], kind: ReplacementRule['kind']) => {
  const found = REPLACEMENT_RULES.find((r) => r.client === client && r.kind === kind)
  if (!found) throw new Error(`no ${client} ${kind} row`)
  return found
}

/** A transaction's fee fields, wei. */
const amounts = (fees: TransactionFees): Record<string, bigint> => {
  const { type: _type, ...rest } = fees
  return rest as Record<string, bigint>
}

/** Whether a pool's rule takes `next` as a replacement of `old`, field by field (the fields it compares). */
function accepts(r: ReplacementRule, old: TransactionFees, next: TransactionFees): boolean {
  const before = amounts(old)
  const after = amounts(next)
  return Object.keys(before).every((f) => {
    if (r.compares === 'effective-price') return true
    if (r.compares === 'max-fee' && f !== 'maxFeePerGas' && f !== 'gasPrice') return true
    // reth does not compare the tips when either is 0 (validate/mod.rs is_underpriced)
    if (r.client === 'reth' && f === 'maxPriorityFeePerGas' && (before[f] === 0n || after[f] === 0n)) return true
    return after[f]! >= ruleThreshold(r, before[f]!)
  })
}

describe('REPLACEMENT_RULES', () => {
  test('default: a row per client and pool of the issue, each naming its repository, file and constant', () => {
    const clients = new Set(REPLACEMENT_RULES.map((r) => r.client))
    expect([...clients].sort()).toEqual(['anvil', 'bor', 'erigon', 'geth', 'nethermind', 'op-geth', 'reth'])
    for (const r of REPLACEMENT_RULES) expect(r.source).toMatch(/^[\w-]+\/[\w-]+ \S+\.(go|rs|cs)\b/)
  })

  test.each([
    ['geth', 'regular', 10n],
    ['geth', 'blob', 100n],
    ['reth', 'regular', 10n],
    ['reth', 'blob', 100n],
    ['erigon', 'regular', 10n],
    ['erigon', 'blob', 100n],
    ['nethermind', 'regular', 10n],
    ['nethermind', 'blob', 100n],
    ['bor', 'regular', 10n],
    ['op-geth', 'regular', 10n],
    ['anvil', 'regular', 0n],
  ] as const)('behavior: %s %s bump is %s%%', (client, kind, bump) => {
    expect(rule(client, kind).bumpPercent).toBe(bump)
  })

  test.each([
    // [client, kind, old, least accepted]: geth floors and wants more than the old fee; reth rounds up;
    // erigon floors; anvil wants any higher max fee
    ['geth', 'regular', 15n, 16n],
    ['reth', 'regular', 15n, 17n],
    ['erigon', 'regular', 15n, 16n],
    ['anvil', 'regular', 15n, 16n],
    ['geth', 'regular', 0n, 1n],
    ['reth', 'regular', 0n, 0n],
    ['geth', 'regular', 1n, 2n],
    ['reth', 'regular', 1n, 2n],
    ['erigon', 'regular', 1n, 1n],
    ['geth', 'blob', 7n, 14n],
    ['nethermind', 'blob', 7n, 14n],
  ] as const)('behavior: %s %s takes %s wei → at least %s wei', (client, kind, old, least) => {
    expect(ruleThreshold(rule(client, kind), old)).toBe(least)
  })
})

describe('minimumReplacement', () => {
  test('default: each fee × 110%, rounded up to the wei', () => {
    expect(minimumReplacement(eip1559(30n * GWEI, 2n * GWEI))).toEqual(eip1559(33n * GWEI, 2_200_000_000n))
  })

  test.each([
    [1n, 2n],
    [10n, 11n],
    [11n, 13n],
    [15n, 17n],
    [100n, 110n],
    [1_000_000_001n, 1_100_000_002n],
  ])('behavior: rounds up: %s wei → %s wei', (old, least) => {
    expect(minimumReplacement({ type: 'legacy', gasPrice: old })).toEqual({ type: 'legacy', gasPrice: least })
    expect(minimumReplacement(eip1559(old, old))).toEqual(eip1559(least, least))
  })

  test('behavior: the truncating wallet (MetaMask #8453) is 1 wei under: 1.000000005 gwei × 1.1 = 1.1000000055, truncated 1.100000005, which reth refuses', () => {
    const old = parseGwei('1.000000005')
    const truncated = (old * 11n) / 10n
    expect(truncated).toBe(parseGwei('1.100000005'))
    const least = minimumReplacement({ type: 'legacy', gasPrice: old })
    expect(least).toEqual({ type: 'legacy', gasPrice: parseGwei('1.100000006') })
    expect(accepts(rule('reth', 'regular'), { type: 'legacy', gasPrice: old }, { type: 'legacy', gasPrice: truncated })).toBe(false)
  })

  test('behavior: a zero tip becomes 1 wei (geth refuses a tip that is not above the old one: MetaMask #17353 kept 0)', () => {
    const least = minimumReplacement(eip1559(20n * GWEI, 0n))
    expect(least).toEqual(eip1559(22n * GWEI, 1n))
    expect(accepts(rule('geth', 'regular'), eip1559(20n * GWEI, 0n), eip1559(22n * GWEI, 0n))).toBe(false)
  })

  test('behavior: blob transactions double all three fees (and a zero fee becomes 1 wei)', () => {
    expect(minimumReplacement({ type: 'blob', maxFeePerGas: 30n * GWEI, maxPriorityFeePerGas: 0n, maxFeePerBlobGas: 3n })).toEqual({
      type: 'blob',
      maxFeePerGas: 60n * GWEI,
      maxPriorityFeePerGas: 1n,
      maxFeePerBlobGas: 6n,
    })
  })

  test('behavior: every rule that compares fields accepts the minimum, and some rule refuses 1 wei less in any field', () => {
    const cases: TransactionFees[] = [
      eip1559(1n, 1n),
      eip1559(10n, 0n),
      eip1559(33_000_000_007n, 1_234_567_891n),
      { type: 'legacy', gasPrice: 25n * GWEI + 3n },
      { type: 'blob', maxFeePerGas: 12n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerBlobGas: 9n },
    ]
    for (const old of cases) {
      const least = minimumReplacement(old)
      const kind = old.type === 'blob' ? 'blob' : 'regular'
      for (const r of REPLACEMENT_RULES.filter((x) => x.kind === kind))
        expect(accepts(r, old, least), `${r.client} on ${old.type}`).toBe(true)
      for (const field of Object.keys(amounts(least))) {
        const under = { ...least, [field]: amounts(least)[field]! - 1n } as TransactionFees
        const refusedBy = REPLACEMENT_RULES.filter((r) => r.kind === kind && !accepts(r, old, under))
        expect(refusedBy.length, `1 wei under in ${field} of ${old.type}`).toBeGreaterThan(0)
      }
    }
  })

  test('error: a fee too high to bump within 256 bits names its field', () => {
    expect(() => minimumReplacement(eip1559(MAX_UINT256, 1n))).toThrow(InvalidQueryError)
    expect(() => minimumReplacement(eip1559(MAX_UINT256, 1n))).toThrow(/'maxFeePerGas' is too high/)
    // the largest max fee that still has a minimum: ceil(x × 1.1) ≤ 2^256 − 1
    const largest = (MAX_UINT256 * 100n) / 110n
    expect(minimumReplacement(eip1559(largest, 0n)).type).toBe('eip1559')
  })
})

const suggestion = (maxFee: bigint, tip: bigint, gasPrice = maxFee): LevelSuggestion => ({
  fees: { maxFeePerGas: maxFee, maxPriorityFeePerGas: tip, minWaitTimeMs: 2_000, maxWaitTimeMs: 6_000 },
  gasPrice,
})
const levels = (low: LevelSuggestion, medium: LevelSuggestion, high: LevelSuggestion): Record<Urgency, LevelSuggestion> => ({
  low,
  medium,
  high,
})

describe('replacementFees', () => {
  test('default: each level is the larger of the minimum and its suggestion, field by field', () => {
    const answer = replacementFees(
      eip1559(30n * GWEI, 2n * GWEI),
      levels(suggestion(25n * GWEI, 1n * GWEI), suggestion(40n * GWEI, 2n * GWEI), suggestion(50n * GWEI, 5n * GWEI)),
    )
    expect(answer).toEqual({
      minimum: eip1559(33n * GWEI, 2_200_000_000n),
      low: eip1559(33n * GWEI, 2_200_000_000n),
      medium: eip1559(40n * GWEI, 2_200_000_000n),
      high: eip1559(50n * GWEI, 5n * GWEI),
    })
  })

  test('behavior: a zero-tip original: the minimum tip is 1 wei, each level tips what it suggests', () => {
    const answer = replacementFees(
      eip1559(20n * GWEI, 0n),
      levels(suggestion(21n * GWEI, GWEI), suggestion(22n * GWEI, 2n * GWEI), suggestion(23n * GWEI, 3n * GWEI)),
    )
    expect(answer.minimum.type === 'eip1559' && answer.minimum.maxPriorityFeePerGas).toBe(1n)
    expect([answer.low, answer.medium, answer.high].map((l) => l.type === 'eip1559' && l.maxPriorityFeePerGas)).toEqual([
      GWEI,
      2n * GWEI,
      3n * GWEI,
    ])
  })

  test('behavior: the tip is never above the max fee', () => {
    // a suggestion tipping 5 gwei under a 4 gwei max fee (a chain whose base fee is tiny): the minimum's max fee binds
    const answer = replacementFees(
      eip1559(4n * GWEI, 1n * GWEI),
      levels(suggestion(1n * GWEI, 5n * GWEI), suggestion(1n, 1n), suggestion(1n, 1n)),
    )
    expect(answer.low).toEqual(eip1559(4_400_000_000n, 4_400_000_000n))
    for (const l of Object.values(answer)) if (l.type === 'eip1559') expect(l.maxPriorityFeePerGas).toBeLessThanOrEqual(l.maxFeePerGas)
  })

  test("behavior: a blob transaction's levels take GET blobFees' level where it is higher than the minimum, the minimum where not", () => {
    const withBlob = (s: ReturnType<typeof suggestion>, blob: bigint) => ({ ...s, maxFeePerBlobGas: blob })
    const answer = replacementFees(
      { type: 'blob', maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerBlobGas: 5n * GWEI },
      levels(
        withBlob(suggestion(30n * GWEI, GWEI), 3n * GWEI),
        withBlob(suggestion(31n * GWEI, 3n * GWEI), 12n * GWEI),
        withBlob(suggestion(32n * GWEI, 4n * GWEI), 15n * GWEI),
      ),
    )
    // the minimum doubles the pending 5 gwei: 10 gwei; low's 3 gwei is under it, medium's 12 and high's 15 are not
    expect([answer.low, answer.medium, answer.high].map((l) => (l.type === 'blob' ? l.maxFeePerBlobGas : 0n))).toEqual([
      10n * GWEI,
      12n * GWEI,
      15n * GWEI,
    ])
  })

  test('behavior: a blob transaction without blob-fee levels (a node that reports no blob fees) keeps the minimum blob fee at every level', () => {
    const answer = replacementFees(
      { type: 'blob', maxFeePerGas: 10n * GWEI, maxPriorityFeePerGas: GWEI, maxFeePerBlobGas: 5n * GWEI },
      levels(suggestion(30n * GWEI, GWEI), suggestion(31n * GWEI, 3n * GWEI), suggestion(32n * GWEI, 4n * GWEI)),
    )
    expect(answer.minimum).toEqual({
      type: 'blob',
      maxFeePerGas: 20n * GWEI,
      maxPriorityFeePerGas: 2n * GWEI,
      maxFeePerBlobGas: 10n * GWEI,
    })
    expect(answer.high).toEqual({ type: 'blob', maxFeePerGas: 32n * GWEI, maxPriorityFeePerGas: 4n * GWEI, maxFeePerBlobGas: 10n * GWEI })
  })

  test('behavior: a legacy transaction is priced by the levels gas prices', () => {
    const answer = replacementFees(
      { type: 'legacy', gasPrice: 10n * GWEI },
      levels(suggestion(0n, 0n, 9n * GWEI), suggestion(0n, 0n, 12n * GWEI), suggestion(0n, 0n, 20n * GWEI)),
    )
    expect(answer).toEqual({
      minimum: { type: 'legacy', gasPrice: 11n * GWEI },
      low: { type: 'legacy', gasPrice: 11n * GWEI },
      medium: { type: 'legacy', gasPrice: 12n * GWEI },
      high: { type: 'legacy', gasPrice: 20n * GWEI },
    })
  })
})

describe('levelSuggestions', () => {
  test('default: the same levels as suggestedGasFees and gasPrices of the window', () => {
    const w = makeWindow({
      baseFees: Array.from({ length: 60 }, (_, i) => 20n * GWEI + BigInt(i) * GWEI),
      next: 80n * GWEI,
      rewards: Array.from({ length: 60 }, (_, i) => flatRewards(BigInt(i % 7) * GWEI)),
    })
    const policy = chainFeePolicy(1)
    const report = buildFeeReport(w, policy)
    const s = levelSuggestions(w, policy)
    for (const [u, price] of [
      ['low', 'SafeGasPrice'],
      ['medium', 'ProposeGasPrice'],
      ['high', 'FastGasPrice'],
    ] as const) {
      expect(s[u].fees?.maxFeePerGas).toBe(parseGwei(report.suggestedGasFees[u].suggestedMaxFeePerGas))
      expect(s[u].fees?.maxPriorityFeePerGas).toBe(parseGwei(report.suggestedGasFees[u].suggestedMaxPriorityFeePerGas))
      expect(s[u].gasPrice).toBe(parseGwei(report.gasPrices[price]))
    }
  })
})

describe('takesBlobTransactions', () => {
  test.each([
    [1, true],
    [11155111, true],
    [56, true],
    [10, false],
    [8453, false],
    [137, false],
    [42161, false],
    [59144, false],
    [43114, false],
    [31337, true],
  ])('behavior: chain %s: %s', (chainId, blobs) => {
    expect(takesBlobTransactions(chainId)).toBe(blobs)
  })
})
