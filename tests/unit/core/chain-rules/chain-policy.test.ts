import { describe, expect, test } from 'vitest'
import {
  CHAIN_FEE_POLICIES,
  chainFeePolicy,
  DEFAULT_FEE_POLICY,
  L1_FEE_NOT_COMPUTED,
  opStackEip1559Params,
  tabledL1FeeRule,
  withLiveParams,
} from '@/lib/core/chain-rules/chain-policy'
import { DEFAULT_PUBLIC_CHAIN_IDS } from '@/lib/chains/registry'
import { getServerEnv } from '@/lib/env'

const GWEI = 1_000_000_000n

describe('chain fee policies', () => {
  test('default: every default chain has a row; an unknown chain gets the safe default', () => {
    for (const id of DEFAULT_PUBLIC_CHAIN_IDS) expect(Object.hasOwn(CHAIN_FEE_POLICIES, id)).toBe(true)
    expect(chainFeePolicy(31337)).toEqual(DEFAULT_FEE_POLICY)
    expect(DEFAULT_FEE_POLICY.enforceBaseFeeBounds).toBe(false)
  })

  test('behavior: no row suggests less than its chain accepts', () => {
    for (const row of Object.values(CHAIN_FEE_POLICIES)) expect(row.minSuggestedPriorityFeeWei >= row.minPriorityFeeWei).toBe(true)
    expect(chainFeePolicy(137).minPriorityFeeWei).toBe(25n * GWEI)
    expect(chainFeePolicy(42161).ignoresTips).toBe(true)
  })

  test('args: CHAIN_FEE_POLICIES overrides fields of a row, in gwei and percent', () => {
    const env = getServerEnv({
      CHAIN_FEE_POLICIES: '{"137":{"minPriorityFeeGwei":"40","maxBaseFeeRisePercent":12.5},"777":{"ignoresTips":true}}',
    })
    const polygon = chainFeePolicy(137, env.CHAIN_FEE_POLICIES['137'])
    expect(polygon.minPriorityFeeWei).toBe(40n * GWEI)
    // the suggestion floor never stays below the minimum
    expect(polygon.minSuggestedPriorityFeeWei).toBe(40n * GWEI)
    expect(polygon.maxBaseFeeRisePpm).toBe(125_000n)
    expect(chainFeePolicy(777, env.CHAIN_FEE_POLICIES['777']).ignoresTips).toBe(true)
  })

  test.each(['{', '{"137":{"minPriorityFeeGwei":30}}', '{"137":{"unknown":1}}', '{"x":{}}', '{"1":{"maxBaseFeeRisePercent":101}}'])(
    'error: CHAIN_FEE_POLICIES=%s is refused, naming the variable',
    (value) => {
      expect(() => getServerEnv({ CHAIN_FEE_POLICIES: value })).toThrow(/CHAIN_FEE_POLICIES/)
    },
  )
})

describe('rollup rows (issue 41)', () => {
  test.each([
    ['Linea', 59144, 'linea', false],
    ['Linea Sepolia', 59141, 'linea', false],
    // the bootloader charges basefee() alone (era-contracts bootloader.yul): tips buy nothing
    ['zkSync Era', 324, 'zksync', true],
    ['zkSync Sepolia', 300, 'zksync', true],
    // no row: an unknown chain's default, as before (Mantle is an OP-stack fork, but not OP-stack here)
    ['Mantle', 5000, 'default', false],
    ['Scroll', 534352, 'default', false],
  ] as const)('default: %s (%i) follows the %s row; ignoresTips %s', (_, chainId, family, ignoresTips) => {
    const policy = chainFeePolicy(chainId)
    expect(policy.family).toBe(family)
    expect(policy.ignoresTips).toBe(ignoresTips)
    expect(policy.enforceBaseFeeBounds).toBe(false)
  })

  test("behavior: zkSync's base-fee bounds plan headroom like Arbitrum's, never refuse data", () => {
    const zk = chainFeePolicy(324)
    expect(zk.maxBaseFeeRisePpm).toBe(125_000n)
    expect(zk.maxBaseFeeFallPpm).toBe(125_000n)
    expect(zk.readsLiveParams).toBeUndefined()
  })

  test.each([
    [534352, 'scroll'],
    [534351, 'scroll'],
    [5000, 'mantle'],
    [5003, 'mantle'],
    [59144, 'linea'],
    [59141, 'linea'],
    [10, undefined],
    [324, undefined],
    [1088, undefined],
  ] as const)('default: chain %i has the tabled L1 fee rule %s', (chainId, rule) => {
    expect(tabledL1FeeRule(chainId)).toBe(rule)
  })

  test('behavior: of the L2s, only Metis is left with an L1 fee not computed', () => {
    expect([...L1_FEE_NOT_COMPUTED]).toEqual([1088])
  })
})

describe('OP-stack live EIP-1559 parameters', () => {
  // version 0 (Holocene): denominator 100, elasticity 5 — Base's 2026 values, +4% a block
  const holocene = '0x' + '00' + '00000064' + '00000005'
  // version 1 (Jovian): the same, then an 8-byte minimum base fee
  const jovian = '0x' + '01' + '000000fa' + '00000002' + '00000000001e8480'

  test("default: decoded from the block's extraData", () => {
    expect(opStackEip1559Params(holocene)).toEqual({ denominator: 100, elasticity: 5 })
    expect(opStackEip1559Params(jovian)).toEqual({ denominator: 250, elasticity: 2 })
  })

  test('behavior: the live parameters set the planned rise: (elasticity − 1) / denominator', () => {
    const op = chainFeePolicy(8453)
    expect(withLiveParams(op, holocene).maxBaseFeeRisePpm).toBe(40_000n)
    expect(withLiveParams(op, jovian).maxBaseFeeRisePpm).toBe(4_000n)
    // absent, malformed or zero: the row's Canyon values
    for (const extra of [undefined, '0x', '0x00000000000000000000', '0x0000000000000000000', '0xdeadbeef']) {
      expect(withLiveParams(op, extra).maxBaseFeeRisePpm).toBe(20_000n)
    }
    // other chains' extraData is builder text, never read as parameters
    expect(withLiveParams(chainFeePolicy(1), holocene)).toEqual(chainFeePolicy(1))
    // an operator's configured bound wins over the blocks'
    const configured = chainFeePolicy(8453, { maxBaseFeeRisePpm: 100_000n })
    expect(withLiveParams(configured, holocene).maxBaseFeeRisePpm).toBe(100_000n)
  })
})
