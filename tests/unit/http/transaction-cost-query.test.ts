import { describe, expect, test } from 'vitest'
import { serializeTransaction, parseGwei } from 'viem'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { parseTransactionCostQuery } from '@/lib/http/transaction-cost-query'

const q = (s: string) => new URLSearchParams(s)
/** A plain EIP-1559 transfer on Base, as a wallet serializes it. */
const transfer = {
  type: 'eip1559',
  chainId: 8453,
  nonce: 7,
  gas: 21_000n,
  maxFeePerGas: parseGwei('0.01'),
  maxPriorityFeePerGas: parseGwei('0.001'),
  to: '0x1111111111111111111111111111111111111111',
  value: 1n,
} as const
const unsigned = serializeTransaction(transfer)
const signed = serializeTransaction(transfer, { r: `0x${'11'.repeat(32)}`, s: `0x${'22'.repeat(32)}`, yParity: 1 })

describe('parseTransactionCostQuery', () => {
  test('default: gas alone; with txBytes; with an unsigned transaction', () => {
    expect(parseTransactionCostQuery(q('gas=21000'))).toEqual({ gas: 21_000n })
    expect(parseTransactionCostQuery(q('gas=65000&txBytes=113'))).toEqual({ gas: 65_000n, txBytes: 113 })
    expect(parseTransactionCostQuery(q(`gas=21000&tx=${unsigned}`))).toEqual({ gas: 21_000n, tx: unsigned })
  })

  test.each([
    ['', 'gas', /missing/],
    ['txBytes=100', 'gas', /missing/],
    ['gas=21000&gas=22000', 'gas', /more than once/],
    ['gas=-21000', 'gas', /negative/],
    ['gas=21000.5', 'gas', /whole number/],
    ['gas=2.1e4', 'gas', /exponent/],
    ['gas=0x5208', 'gas', /hex/],
    ['gas=021000', 'gas', /decimal integer/],
    ['gas=', 'gas', /empty/],
    ['gas=20999', 'gas', /below 21000/],
    ['gas=9007199254740992', 'gas', /above/],
    ['gas=21000&txBytes=131073', 'txBytes', /128 KiB/],
    ['gas=21000&txBytes=0', 'txBytes', /below 1/],
    ['gas=21000&txBytes=1.5', 'txBytes', /whole number/],
    ['gas=21000&tx=0x02', 'tx', /not a serialized transaction/],
    ['gas=21000&tx=zz', 'tx', /hex/],
    ['gas=21000&tx=0x123', 'tx', /hex/],
    [`gas=21000&tx=${signed}`, 'tx', /signed/],
    [`gas=21000&tx=0x${'00'.repeat(131073)}`, 'tx', /128 KiB/],
    [`gas=21000&txBytes=51&tx=${unsigned}`, 'txBytes', /tx/],
    ['gas=21000&gasPrice=1', 'gasPrice', /unknown/],
  ])('error: %s is refused, naming %s', (query, parameter, problem) => {
    let error: unknown
    try {
      parseTransactionCostQuery(q(query))
    } catch (e) {
      error = e
    }
    expect(error).toBeInstanceOf(InvalidQueryError)
    expect((error as InvalidQueryError).parameter).toBe(parameter)
    expect((error as Error).message).toMatch(problem)
  })
})
