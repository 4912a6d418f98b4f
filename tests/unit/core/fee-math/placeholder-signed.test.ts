// The signed form Scroll's fee is counted on, from an unsigned transaction: viem reads it back as the same
// transaction, signed. Its compressed size against a real signature and l2geth's 0xff… one is in
// tests/unit/runtime/zstd-scroll.test.ts (it needs the zstd addon).
import { parseTransaction, serializeTransaction, toHex, type Hex, type TransactionSerializable } from 'viem'
import { describe, expect, test } from 'vitest'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { placeholderSigned } from '@/lib/core/fee-math/placeholder-signed'

const SCROLL = 534352
const to = '0x687b50a70d33d71f9a82dd330b8c091e4d772508'
const data: Hex =
  '0xa9059cbb000000000000000000000000687b50a70d33d71f9a82dd330b8c091e4d77250800000000000000000000000000000000000000000000000ac96dda943e512bb9'
const key: Hex = '0x3c466f58aa6edab61bd5f2bab117804d6f3cf125a815e53c161c02df8209d09e'
/** secp256k1's order halved: EIP-2's bound on s. */
const HALF_N = 0x7fffffffffffffffffffffffffffffff5d576e7357a4501ddfe92f46681b20a0n

const transactions: [string, TransactionSerializable][] = [
  ['legacy, EIP-155', { type: 'legacy', chainId: SCROLL, nonce: 26102, gasPrice: 120108n, gas: 459789n, to, value: 0n, data }],
  ['legacy, no chain id', { type: 'legacy', nonce: 0, gasPrice: 1n, gas: 21000n, to, value: 1n }],
  [
    'EIP-2930',
    {
      type: 'eip2930',
      chainId: SCROLL,
      nonce: 7,
      gasPrice: 120108n,
      gas: 60000n,
      to,
      data,
      accessList: [{ address: to, storageKeys: [key] }],
    },
  ],
  ['EIP-1559', { chainId: SCROLL, nonce: 1, maxFeePerGas: 2_000_000n, maxPriorityFeePerGas: 1n, gas: 60000n, to, data }],
  ['EIP-1559, contract creation', { chainId: SCROLL, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 0n, gas: 1_000_000n, data }],
  [
    'EIP-7702',
    {
      type: 'eip7702',
      chainId: SCROLL,
      nonce: 3,
      maxFeePerGas: 2_000_000n,
      maxPriorityFeePerGas: 1n,
      gas: 90000n,
      to,
      authorizationList: [{ address: to, chainId: SCROLL, nonce: 4, r: key, s: key, yParity: 1 }],
    },
  ],
]

describe('placeholderSigned', () => {
  test.each(transactions)('default: %s: viem reads back the same transaction, signed', (_, tx) => {
    const unsigned = serializeTransaction(tx)
    const signed = parseTransaction(toHex(placeholderSigned(unsigned)))
    const { r, s, v, yParity, ...fields } = signed
    expect(fields).toEqual(parseTransaction(unsigned))
    expect([r, s, yParity].every((x) => x !== undefined)).toBe(true)
    expect(serializeTransaction(fields as TransactionSerializable)).toBe(unsigned)
    if (tx.type === 'legacy') expect(v).toBe(tx.chainId ? BigInt(tx.chainId) * 2n + 35n + BigInt(yParity!) : 27n + BigInt(yParity!))
  })

  test.each(transactions)('behavior: %s: r and s are 32 bytes each, a valid signature, the same for the same transaction', (_, tx) => {
    const unsigned = serializeTransaction(tx)
    const signed = parseTransaction(toHex(placeholderSigned(unsigned)))
    expect(signed.r).toMatch(/^0x(?!00)[0-9a-f]{64}$/)
    expect(signed.s).toMatch(/^0x(?!00)[0-9a-f]{64}$/)
    expect(BigInt(signed.s!) <= HALF_N).toBe(true)
    expect(placeholderSigned(unsigned)).toEqual(placeholderSigned(unsigned))
  })

  test.each(transactions)('behavior: %s: as long as with a real signature (32-byte r and s)', (_, tx) => {
    const real =
      tx.type === 'legacy' ? { r: key, s: key, v: tx.chainId ? BigInt(tx.chainId) * 2n + 35n : 27n } : { r: key, s: key, yParity: 0 }
    expect(toHex(placeholderSigned(serializeTransaction(tx)))).toHaveLength(serializeTransaction(tx, real).length)
  })

  test('behavior: another transaction, another signature (high-entropy bytes, not a constant)', () => {
    const a = parseTransaction(toHex(placeholderSigned(serializeTransaction({ ...transactions[3]![1], nonce: 1 }))))
    const b = parseTransaction(toHex(placeholderSigned(serializeTransaction({ ...transactions[3]![1], nonce: 2 }))))
    expect(a.r).not.toBe(b.r)
    expect(a.s).not.toBe(b.s)
    expect(a.r).not.toBe(a.s)
  })

  const signedLegacy = serializeTransaction(transactions[0]![1], { r: key, s: key, v: 1068739n })
  const signed1559 = serializeTransaction(transactions[3]![1], { r: key, s: key, yParity: 0 })
  const blob = '0x03' + serializeTransaction(transactions[3]![1]).slice(4)
  test.each([
    ['not hex', 'nope' as Hex, /not 0x hex/],
    ['half a byte', '0x02c' as Hex, /not 0x hex/],
    ['nothing', '0x' as Hex, /not 0x hex/],
    ['an unknown type', '0x05c0' as Hex, /unknown type 0x05/],
    ['an L1 message (0x7e)', '0x7ec0' as Hex, /unknown type 0x7e/],
    ['a blob transaction', blob as Hex, /blob \(EIP-4844\)/],
    ['a signed legacy transaction', signedLegacy, /is signed/],
    ['a signed EIP-1559 transaction', signed1559, /is signed/],
    ['cut short', serializeTransaction(transactions[3]![1]).slice(0, -2) as Hex, /ends early/],
    ['with bytes after it', `${serializeTransaction(transactions[3]![1])}00` as Hex, /bytes follow/],
    ['a string, not a list', '0x8180' as Hex, /not an RLP list/],
    ['a list of the wrong length', '0x02c3010203' as Hex, /has 9 fields, this has 3/],
    ['a legacy list of the wrong length', '0xc3010203' as Hex, /6 or 9 fields, this has 3/],
  ])('error: %s', (_, hex, message) => {
    expect(() => placeholderSigned(hex)).toThrow(InvalidQueryError)
    expect(() => placeholderSigned(hex)).toThrow(message)
    try {
      placeholderSigned(hex)
    } catch (e) {
      expect((e as InvalidQueryError).parameter).toBe('tx')
    }
  })
})
