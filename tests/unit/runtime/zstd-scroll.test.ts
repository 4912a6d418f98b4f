// Scroll's compressed size against the vectors its implementations share: scroll-tech/reth
// crates/scroll/alloy/evm/src/tx/compression.rs test_compression (Go's da-codec has the same), each a size
// the chain computed with da-codec's zstd settings. They do not tell literal compression on from off (Node's own
// zstd, which cannot turn it off, gives the same sizes for them), so a low-entropy sample pins that setting.
import { parseTransaction, serializeTransaction, type Hex, type TransactionSerializable } from 'viem'
import { afterEach, describe, expect, test, vi } from 'vitest'
import { InvalidQueryError } from '@/lib/core/contract/errors'
import { placeholderSigned } from '@/lib/core/fee-math/placeholder-signed'
import { scrollCompressedSize, scrollCompressorAvailable, scrollZstdLength } from '@/lib/runtime/zstd-scroll'

const bytes = (hex: string) => Uint8Array.from(Buffer.from(hex.slice(2), 'hex'))

/** name, bytes, compressed size (compression.rs; the last is a whole signed legacy transaction, the others calldata) */
const VECTORS: [string, Hex, number][] = [
  ['eth-transfer', '0x', 0],
  [
    'scr-transfer',
    '0xa9059cbb000000000000000000000000687b50a70d33d71f9a82dd330b8c091e4d77250800000000000000000000000000000000000000000000000ac96dda943e512bb9',
    49,
  ],
  [
    'syncswap-swap',
    '0x2cc4081e00000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000005ec79b80000000000000000000000000000000000000000000000000003328b944c400000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000006000000000000000000000000053000000000000000000000000000000000000040000000000000000000000000000000000000000000000000091a94863ca800000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000020000000000000000000000000814a23b053fd0f102aeeda0459215c2444799c7000000000000000000000000000000000000000000000000000000000000000800000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000010000000000000000000000000000000000000000000000000000000000000000600000000000000000000000005300000000000000000000000000000000000004000000000000000000000000485ca81b70255da2fe3fd0814b57d1b08fce784e00000000000000000000000000000000000000000000000000000000000000020000000000000000000000000000000000000000000000000000000000000000',
    126,
  ],
  [
    'uniswap-swap',
    '0x5023b4df00000000000000000000000006efdbff2a14a7c8e15944d1f4a48f9f95f663a4000000000000000000000000530000000000000000000000000000000000000400000000000000000000000000000000000000000000000000000000000001f4000000000000000000000000485ca81b70255da2fe3fd0814b57d1b08fce784e000000000000000000000000000000000000000000000000006a94d74f43000000000000000000000000000000000000000000000000000000000000045af6750000000000000000000000000000000000000000000000000000000000000000',
    87,
  ],
  [
    'etherfi-deposit',
    '0x63baa26000000000000000000000000077a7e3215a621a9935d32a046212ebfcffa3bff900000000000000000000000006efdbff2a14a7c8e15944d1f4a48f9f95f663a400000000000000000000000008c6f91e2b681faf5e17227f2a44c307b3c1364c0000000000000000000000000000000000000000000000000000000002d4cae000000000000000000000000000000000000000000000000000000000028f7f83000000000000000000000000249e3fa81d73244f956ecd529715323b6d02f24b00000000000000000000000000000000000000000000000000000000000000e00000000000000000000000000000000000000000000000000000000000000041a95314c3a11f86cc673f2afd60d27f559cb2edcc0da5af030adffc97f9a5edc3314efbadd32878e289017f644a4afa365da5367fefe583f7c4ff0c6047e2c1ff1b00000000000000000000000000000000000000000000000000000000000000',
    199,
  ],
  ['etherfi-stargate', '0x5988e7a1000000000000000000000000388325dd7c76e37cfda1ed6d8a97849a46b5512a', 36],
  [
    'edgepushoracle-postupdate',
    '0x49a1a4fb000000000000000000000000000000000000000000000000000000000000004000000000000000000000000000000000000000000000000000000000000000c000000000000000000000000000000000000000000000000000000000000000600000000000000000000000000000000000000000000000000000000005f725f60000000000000000000000000000000000000000000000000000000003d0cac600000000000000000000000000000000000000000000000000000000685d50cd000000000000000000000000000000000000000000000000000000000000000500000000000000000000000000000000000000000000000000000000000000a0000000000000000000000000000000000000000000000000000000000000012000000000000000000000000000000000000000000000000000000000000001a0000000000000000000000000000000000000000000000000000000000000022000000000000000000000000000000000000000000000000000000000000002a0000000000000000000000000000000000000000000000000000000000000004155903b95865fc5a5dd7d4d876456140dd0b815695647fc41eb1924f4cfe267265130b5a5d77125c44cf6a5a81edba6d5850ba00f90ab83281c9b44e17528fd74010000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000416f000e0498733998e6a1a6454e116c1b1f95f7e000400b6a54029406cf288bdc615b62de8e2db533d6010ca57001e0b8a4b3f05ed516a31830516c52b9df206e000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000410dabc77a807d729ff62c3be740d492d884f026ad2770fa7c4bdec569e201643656b07f2009d2129173738571417734a3df051cebc7b8233bec6d9471c21c098700000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000041eb009614c939170e9ff3d3e06c3a2c45810fe46a364ce28ecec5e220f5fd86cd6e0f70ab9093dd6b22b69980246496b600c8fcb054047962d4128efa48b692f301000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000000041a31b4dd4f0a482372d75c7a8c5f11aa8084a5f358579866f1d25a26a15beb2b5153400bfa7fa3d6fba138c02dd1eb8a5a97d62178d98c5632a153396a566e5ed0000000000000000000000000000000000000000000000000000000000000000',
    421,
  ],
  [
    'intmax-post',
    '0x9b6babf0f0372bb253e060ecbdd3dbef8b832b0e743148bd807bfcf665593a56a18bac69000000000000000000000000000000000000000000000000000000006861676d0000000000000000000000000000000000000000000000000000000000000015800000000000000000000000000000000000000000000000000000000000000029a690c4ef1e18884a11f73c8595fb721f964a3e2bee809800c474278f024bcd05a76119827e6c464cee8620f616a9a23d41305eb9f9682f9d2eaf964325fcd71147783453566f27ce103a2398d96719ee22ba51b89b92cdf952af817929329403b75ae310b23cf250041d53c82bef431fa2527e2dd68b49f45f06feb2bd09f011358fe2650b8987ea2bb39bb6e28ce770f4fc9c4f064d0ae7573a1450452b501a5b0d3454d254dbf9db7094f4ca1f5056143f5c70dee4126443a6150d9e51bd05dac7e9a2bd48a8797ac6e9379d400c5ce1815b10846eaf0d80dca3a727ffd0075387e0f1bc1b363c81ecf8d05a4b654ac6fbe1cdc7c741a5c0bbeabde4138906009129ca033af12094fd7306562d9735b2fe757f021b7eb3320f8a814a286a10130969de2783e49871b80e967cfba630e6bdef2fd1d2b1076c6c3f5fd9ae5800000000000000000000000000000000000000000000000000000000000001e000000000000000000000000000000000000000000000000000000000000000012a98f1556efe81340fad3e59044b8139ce62f1d5d50b44b680de9422b1ddbf1a',
    422,
  ],
  [
    'galileo-mismatch',
    '0xf901ae8265f68301d52c8307040d94c9c35e593842c3d5e71304b2291e204583226e2a80b90144412658e5000000000000000000000000000000000000000000000000000000000000002000000000000000000000000000000000000000000000000000000000000000fe0000000000000000000000000000000000000000020027004f00a500d100d500d900dd00ed00fd530000000000000000000000000000000000000406efdbff2a14a7c8e15944d1f4a48f9f95f663a4005300903c813df550a32d4a9d42010d057386429ad2328ed906efdbff2a14a7c8e15944d1f4a48f9f95f663a4530000000000000000000000000000000000000414ffa10b2019d6eb63140ef4b5026c7e049936bfeb00a900bdfeec4e40c170ef3736dc9a29389fb8cd7ed12409ae7bb52a3614ac5b66389d8873a8cb9f45f817c500a900bd000500010000000000000000000000000000187abb94380e0000000000000000000000092f2a085c00000083104ec3a0e3c466f58aa6edab61bd5f2bab117804d6f3cf125a815e53c161c02df8209d09a0267df663ab1cb9a5c85441df5051a7a03623b946a87ff42af694fc21e40f34fb',
    301,
  ],
]

/**
 * 1,000 bytes over 16 letters, from a fixed LCG (as written, the product is a double: the sequence is fixed by IEEE 754).
 * Literals dominate it: with literal compression off, as da-codec sets it, 833 bytes; with it on (zstd's default,
 * and Node's zlib.zstdCompress, which cannot turn it off) 483.
 */
function lowEntropySample(): Uint8Array {
  let seed = 12345
  const out = new Uint8Array(1000)
  for (let i = 0; i < out.length; i++) {
    seed = (seed * 1103515245 + 12345) >>> 0
    out[i] = 0x41 + ((seed >>> 16) & 15)
  }
  return out
}

const galileoMismatch = VECTORS.at(-1)![1]

/** The unsigned form of a signed transaction, as viem writes it. */
function unsignedOf(signed: Hex): Hex {
  const { r: _r, s: _s, v: _v, yParity: _y, ...fields } = parseTransaction(signed)
  return serializeTransaction(fields as TransactionSerializable)
}

/** The transaction signed as l2geth's estimate signs it (rollup/fees/rollup_fee.go): r = s = 0xff…ff, v = 1. */
function l2gethSigned(unsigned: Hex): Hex {
  const tx = parseTransaction(unsigned) as TransactionSerializable
  const ff: Hex = `0x${'ff'.repeat(32)}`
  if (tx.type !== 'legacy') return serializeTransaction(tx, { r: ff, s: ff, yParity: 1 })
  return serializeTransaction(tx, { r: ff, s: ff, v: tx.chainId ? BigInt(tx.chainId) * 2n + 36n : 28n })
}

/**
 * The addon is optional (a machine without a C toolchain installs without it, and the service answers the bound);
 * CI builds it, so there every test below runs and the first fails if it did not build.
 */
const withAddon = process.env.CI === 'true' || scrollCompressorAvailable()

describe.runIf(withAddon)('scrollZstdLength', () => {
  test("default: the zstd addon loads (npm ci builds it: scripts/ensure-node.sh points node-gyp at Node's headers)", () => {
    expect(scrollCompressorAvailable()).toBe(true)
  })

  test.each(VECTORS)('default: %s (compression.rs): %#', (_, hex, size) => {
    expect(scrollZstdLength(bytes(hex))).toBe(size)
  })

  test('behavior: literals stay raw, as da-codec sets it: the low-entropy sample is 833 bytes, not 483', () => {
    expect(scrollZstdLength(lowEntropySample())).toBe(833)
  })

  test('behavior: never more than the input (min with the raw length), none for nothing', () => {
    const random = Uint8Array.from({ length: 300 }, (_, i) => (i * 197 + ((i * i) % 251)) & 0xff)
    expect(scrollZstdLength(random)).toBeLessThanOrEqual(300)
    expect(scrollZstdLength(new Uint8Array(0))).toBe(0)
    expect(scrollZstdLength(Uint8Array.of(7))).toBe(1)
  })
})

describe.runIf(withAddon)('scrollCompressedSize', () => {
  test('default: the galileo-mismatch transaction, given unsigned, counts what its real signature made it: 301 bytes', () => {
    expect(scrollCompressedSize(unsignedOf(galileoMismatch))).toBe(301)
  })

  test('behavior: it is the size of the placeholder-signed transaction', () => {
    const unsigned = unsignedOf(galileoMismatch)
    expect(scrollCompressedSize(unsigned)).toBe(scrollZstdLength(placeholderSigned(unsigned)))
  })

  test("behavior: l2geth's 0xff… signature undercounts it (zstd squeezes the repeated bytes): 242 bytes", () => {
    expect(scrollZstdLength(bytes(l2gethSigned(unsignedOf(galileoMismatch))))).toBe(242)
  })

  const to = '0x687b50a70d33d71f9a82dd330b8c091e4d772508'
  const data = `0x${VECTORS[1]![1].slice(2)}` as Hex
  test.each<[string, TransactionSerializable]>([
    ['legacy', { type: 'legacy', chainId: 534352, nonce: 9, gasPrice: 120108n, gas: 60000n, to, data }],
    ['EIP-2930', { type: 'eip2930', chainId: 534352, nonce: 9, gasPrice: 120108n, gas: 60000n, to, data, accessList: [] }],
    ['EIP-1559', { chainId: 534352, nonce: 9, maxFeePerGas: 2_000_000n, maxPriorityFeePerGas: 1n, gas: 60000n, to, data }],
    ['EIP-1559, a plain transfer', { chainId: 534352, nonce: 0, maxFeePerGas: 1n, maxPriorityFeePerGas: 1n, gas: 21000n, to, value: 1n }],
  ])('behavior: %s: at least what the 0xff… signature counts', (_, tx) => {
    const unsigned = serializeTransaction(tx)
    expect(scrollCompressedSize(unsigned)!).toBeGreaterThanOrEqual(scrollZstdLength(bytes(l2gethSigned(unsigned)))!)
  })

  test('error: hex that is not a transaction', () => {
    expect(() => scrollCompressedSize('0x1234')).toThrow(InvalidQueryError)
  })
})

describe('without the addon', () => {
  const SINGLETON = Symbol.for('gas-api.zstd-scroll')
  afterEach(() => {
    delete (globalThis as Record<symbol, unknown>)[SINGLETON]
    vi.doUnmock('node:module')
    vi.resetModules()
  })

  test('behavior: where zstd-napi did not build, every size is null and the compressor says it is unavailable', async () => {
    delete (globalThis as Record<symbol, unknown>)[SINGLETON]
    vi.resetModules()
    vi.doMock('node:module', () => ({
      createRequire: () => () => {
        throw new Error("Cannot find module 'zstd-napi/binding'")
      },
    }))
    const m = await import('@/lib/runtime/zstd-scroll')
    expect(m.scrollCompressorAvailable()).toBe(false)
    expect(m.scrollZstdLength(bytes(galileoMismatch))).toBeNull()
    expect(m.scrollCompressedSize(unsignedOf(galileoMismatch))).toBeNull()
    // (a fresh module graph: its own InvalidQueryError class)
    expect(() => m.scrollCompressedSize('0x1234')).toThrow(/Query parameter 'tx' is not a serialized transaction/)
  })
})
