import { describe, expect, test } from 'vitest'
import { buildChainRegistry, DEFAULT_PUBLIC_CHAIN_IDS } from '@/lib/chains/registry'

describe('buildChainRegistry', () => {
  test('default: the public set, named by viem, each with a public https RPC', () => {
    const chains = buildChainRegistry({ USE_PUBLIC_RPCS: true, rpcUrls: {} })
    expect([...chains.keys()]).toEqual([...DEFAULT_PUBLIC_CHAIN_IDS].sort((a, b) => a - b))
    expect([1, 10, 56, 137, 8453, 42161, 43114, 59144, 11155111].every((id) => chains.has(id))).toBe(true)
    expect(chains.get(1)?.name).toBe('Ethereum')
    expect(chains.get(8453)?.name).toBe('Base')
    for (const c of chains.values()) expect(c.rpcUrls[0]).toMatch(/^https:\/\//)
  })

  test('args: RPC_URL_<id> overrides a default and adds chains; unknown ids get a generic name', () => {
    const chains = buildChainRegistry({
      USE_PUBLIC_RPCS: true,
      rpcUrls: { '1': ['http://a', 'http://b'], '31337': ['http://c'], '987654321': ['http://d'] },
    })
    expect(chains.get(1)?.rpcUrls).toEqual(['http://a', 'http://b'])
    expect(chains.get(31337)?.name).toBe('Anvil')
    expect(chains.get(987654321)?.name).toBe('Chain 987654321')
  })

  test('behavior: a chain viem knows carries its native token; an unknown one none', () => {
    const chains = buildChainRegistry({
      USE_PUBLIC_RPCS: true,
      rpcUrls: { '31337': ['http://c'], '987654321': ['http://d'] },
    })
    expect(chains.get(1)?.nativeCurrency).toEqual({ symbol: 'ETH', decimals: 18 })
    expect(chains.get(137)?.nativeCurrency?.decimals).toBe(18)
    expect(chains.get(56)?.nativeCurrency?.symbol).toBe('BNB')
    expect(chains.get(31337)?.nativeCurrency).toEqual({ symbol: 'ETH', decimals: 18 })
    expect(chains.get(987654321)?.nativeCurrency).toBeUndefined()
  })

  test('args: USE_PUBLIC_RPCS=false serves only configured chains', () => {
    const chains = buildChainRegistry({ USE_PUBLIC_RPCS: false, rpcUrls: { '10': ['http://op'] } })
    expect([...chains.keys()]).toEqual([10])
    expect(chains.get(10)?.name).toBe('OP Mainnet')
    expect(chains.get(10)?.nominalBlockTimeMs).toBe(2000)
  })

  test('behavior: OP-stack chains are marked (our OP-stack policy rows, or viem with the GasPriceOracle predeploy); others are not', () => {
    const chains = buildChainRegistry({ USE_PUBLIC_RPCS: true, rpcUrls: { '7777777': ['http://zora'], '987654321': ['http://x'] } })
    const op = [...chains.values()].filter((c) => c.opStack).map((c) => c.id)
    expect(op).toEqual([10, 8453, 7777777])
  })

  test.each([
    [534352, 'scroll', false],
    [534351, 'scroll', false],
    [5000, 'mantle', false],
    [5003, 'mantle', false],
    [59144, 'linea', false],
    [59141, 'linea', false],
    [10, 'op-stack', false],
    [42161, 'arbitrum', false],
    // pubdata is charged inside gas: no rule, and no unknown fee either
    [324, undefined, false],
    [300, undefined, false],
    [1, undefined, false],
    // Metis: its rule since 2025 could not be confirmed; a chain viem does not know may charge anything
    [1088, undefined, true],
    [987654321, undefined, true],
  ] as const)('behavior: chain %i has L1 fee rule %s, unknownL1Fee %s', (id, rule, unknown) => {
    const chain = buildChainRegistry({ USE_PUBLIC_RPCS: false, rpcUrls: { [String(id)]: ['http://x'] } }).get(id)
    expect(chain?.l1FeeRule).toBe(rule)
    expect(chain?.unknownL1Fee ?? false).toBe(unknown)
  })

  test("behavior: Mantle's own rule comes before OP-stack detection: not OP-stack, its default fee policy kept, amounts in MNT", () => {
    const mantle = buildChainRegistry({ USE_PUBLIC_RPCS: false, rpcUrls: { '5000': ['http://m'] } }).get(5000)
    expect(mantle?.opStack).toBe(false)
    expect(mantle?.feePolicy?.family).toBe('default')
    expect(mantle?.nativeCurrency?.symbol).toBe('MNT')
  })
})
