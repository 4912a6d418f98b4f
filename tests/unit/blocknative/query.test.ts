import { describe, expect, test } from 'vitest'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { chainNames } from '@/lib/blocknative/names'
import { parseChainQuery, parseConfidenceLevels, parseWithBaseFees } from '@/lib/blocknative/query'

const q = (s: string) => new URLSearchParams(s)
const names = chainNames([
  { chainId: 1, name: 'Ethereum', testnet: false },
  { chainId: 137, name: 'Polygon', testnet: false },
  { chainId: 31337, name: 'Anvil', testnet: false },
])

/** The parameter an InvalidQueryError names, or the error's absence. */
function parameterOf(parse: () => unknown): string | null {
  try {
    parse()
    return null
  } catch (err) {
    if (err instanceof InvalidQueryError) return err.parameter
    throw err
  }
}

describe('parseChainQuery', () => {
  test('default: Ethereum mainnet, as Blocknative', () => expect(parseChainQuery(q(''), names)).toBe(1))

  test.each([
    ['chainid=137', 137],
    ['chainId=137', 137],
    ['chainid=137&chainId=137', 137],
    ['system=polygon&network=main', 137],
    ['system=anvil&network=main', 31337],
    ['chainid=137&system=polygon&network=main', 137],
    // a chain the service does not serve is the endpoint's to refuse, as everywhere
    ['chainid=6001', 6001],
  ])('args: %s', (query, id) => expect(parseChainQuery(q(query), names)).toBe(id))

  test.each([
    ['chainid=0', 'chainid'],
    ['chainid=-1', 'chainid'],
    ['chainid=1.5', 'chainid'],
    ['chainid=0x1', 'chainid'],
    ['chainid=', 'chainid'],
    ['chainid=abc', 'chainid'],
    ['chainid=99999999999999999', 'chainid'],
    ['chainId=1e3', 'chainId'],
    ['chainid=1&chainid=137', 'chainid'],
    ['chainid=1&chainId=137', 'chainId'],
    ['system=polygon', 'network'],
    ['network=main', 'system'],
    ['system=solana&network=main', 'system'],
    ['chainid=1&system=polygon&network=main', 'system'],
  ])('error: %s names %s', (query, parameter) => expect(parameterOf(() => parseChainQuery(q(query), names))).toBe(parameter))
})

describe('parseConfidenceLevels', () => {
  test('default: 99, 95, 90, 80, 70', () => expect(parseConfidenceLevels(q(''))).toEqual([99, 95, 90, 80, 70]))

  test.each([
    ['confidenceLevels=70', [70]],
    ['confidenceLevels=1,99', [1, 99]],
    ['confidenceLevels=50&confidenceLevels=99&confidenceLevels=10', [50, 99, 10]],
    ['confidenceLevels=80,60&confidenceLevels=40', [80, 60, 40]],
    ['confidenceLevels=99,98,97,96,95', [99, 98, 97, 96, 95]],
  ])('args: %s, answered in the order asked', (query, levels) => expect(parseConfidenceLevels(q(query))).toEqual(levels))

  test.each([
    'confidenceLevels=0',
    'confidenceLevels=100',
    'confidenceLevels=99.5',
    'confidenceLevels=-5',
    'confidenceLevels=',
    'confidenceLevels=90,',
    'confidenceLevels=abc',
    'confidenceLevels=099',
    'confidenceLevels=99,95,90,80,70,60',
    'confidenceLevels=99,95,90&confidenceLevels=80,70,60',
  ])('error: %s', (query) => expect(parameterOf(() => parseConfidenceLevels(q(query)))).toBe('confidenceLevels'))
})

describe('parseWithBaseFees', () => {
  test('default: false', () => expect(parseWithBaseFees(q(''))).toBe(false))
  test('args: true, false', () => {
    expect(parseWithBaseFees(q('withBaseFees=true'))).toBe(true)
    expect(parseWithBaseFees(q('withBaseFees=false'))).toBe(false)
  })
  test.each(['withBaseFees=1', 'withBaseFees=TRUE', 'withBaseFees=', 'withBaseFees=yes', 'withBaseFees=true&withBaseFees=true'])(
    'error: %s',
    (query) => expect(parameterOf(() => parseWithBaseFees(q(query)))).toBe('withBaseFees'),
  )
})
