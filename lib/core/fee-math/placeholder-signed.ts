import { keccak_256 } from '@noble/hashes/sha3'
import { InvalidQueryError } from '../contract/errors'

/**
 * The signed form of an unsigned transaction, for L1 fees charged on the signed EIP-2718 bytes' compressed size (Scroll:
 * zstd, scroll-tech/reth compression.rs; OP-stack and Mantle: FastLZ, specs protocol/fjord/exec-engine.md), with a
 * placeholder signature of 64 high-entropy bytes that compress no better than a real one (l2geth's 0xff…ff ones, in
 * rollup_fee.go EstimateL1DataFeeForMessage, squeeze to a few and undercount). Pure: a minimal RLP reader and writer.
 */

/** Items of each unsigned typed transaction's RLP list (EIP-2930, EIP-1559, EIP-7702): the signature adds three. */
const TYPED_FIELDS: Readonly<Record<number, number>> = { 0x01: 8, 0x02: 9, 0x04: 10 }
/** Items of an unsigned legacy transaction: without a chain id (before EIP-155), and with `chainId, 0, 0` (EIP-155). */
const LEGACY_FIELDS = 6
const EIP155_FIELDS = 9
/** Keeps these bytes apart from any other keccak256 of a transaction (its hash, a signing hash). */
const DOMAIN = new TextEncoder().encode('gas-api/scroll-placeholder-signature')

const notATransaction = (problem: string) =>
  new InvalidQueryError(
    'tx',
    `is not a serialized transaction (${problem}): send the unsigned transaction as viem's serializeTransaction writes it.`,
  )

/**
 * The signed EIP-2718 serialization of `unsignedTx` (legacy, with or without EIP-155's chain id, EIP-2930, EIP-1559 or
 * EIP-7702, as viem's serializeTransaction writes it unsigned) with a placeholder signature that compresses as a
 * real one does: r and s are 32 bytes each of keccak256 output, derived from the transaction (so the same input
 * always gives the same bytes), their top byte non-zero so that RLP keeps all 32 (r below the curve order, s low
 * as EIP-2 requires), and yParity, or EIP-155's `v = chainId·2 + 35 + yParity`, as a signer writes it.
 * @param unsignedTx the unsigned serialized transaction, 0x hex
 * @returns the signed transaction's bytes, as the chain stores and compresses them
 * @throws InvalidQueryError ('tx') when the hex is not an unsigned transaction of those types
 * @example placeholderSigned(serializeTransaction({ chainId: 8453, to, value: 1n, maxFeePerGas: 1n })) // 0x02 ‖ rlp([…, yParity, r, s])
 */
export function placeholderSigned(unsignedTx: `0x${string}`): Uint8Array {
  if (!/^0x(?:[0-9a-fA-F]{2})+$/.test(unsignedTx)) throw notATransaction('not 0x hex of whole bytes')
  const tx = hexToBytes(unsignedTx)
  const type = tx[0]!
  if (type >= 0x80) return signLegacy(tx) // EIP-2718: a type is below 0x80, a legacy transaction an RLP list
  if (type === 0x03) throw new InvalidQueryError('tx', 'is a blob (EIP-4844) transaction: rollups take none.')
  const fields = TYPED_FIELDS[type]
  if (fields === undefined) throw notATransaction(`unknown type 0x${type.toString(16).padStart(2, '0')}`)
  const items = readList(tx, 1)
  if (items.length === fields + 3) throw signedError()
  if (items.length !== fields) throw notATransaction(`a type-${type} transaction has ${fields} fields, this has ${items.length}`)
  const { yParity, r, s } = placeholderSignature(tx)
  return concat([Uint8Array.of(type), encodeList([...items, encodeUint(BigInt(yParity)), encodeBytes(r), encodeBytes(s)])])
}

/** Legacy: `rlp([nonce, gasPrice, gas, to, value, data, v, r, s])`, v = 27 + yParity before EIP-155. */
function signLegacy(tx: Uint8Array): Uint8Array {
  const items = readList(tx, 0)
  const { yParity, r, s } = placeholderSignature(tx)
  if (items.length === LEGACY_FIELDS) return encodeList([...items, encodeUint(27n + BigInt(yParity)), encodeBytes(r), encodeBytes(s)])
  if (items.length !== EIP155_FIELDS) throw notATransaction(`a legacy transaction has 6 or 9 fields, this has ${items.length}`)
  const [chainId, zero1, zero2] = items.slice(6) as [Uint8Array, Uint8Array, Uint8Array]
  if (!isEmptyString(zero1) || !isEmptyString(zero2)) throw signedError()
  const v = readUint(chainId) * 2n + 35n + BigInt(yParity)
  return encodeList([...items.slice(0, 6), encodeUint(v), encodeBytes(r), encodeBytes(s)])
}

const signedError = () =>
  new InvalidQueryError('tx', 'is signed: send the unsigned transaction (the L1 fee adds the signature, as the chain does).')

/** r, s and yParity from keccak256 of a domain tag and the transaction: high-entropy, deterministic. */
function placeholderSignature(tx: Uint8Array): { yParity: 0 | 1; r: Uint8Array; s: Uint8Array } {
  const seed = keccak_256(concat([DOMAIN, tx]))
  const r = keccak_256(concat([seed, Uint8Array.of(1)]))
  const s = keccak_256(concat([seed, Uint8Array.of(2)]))
  r[0] = 1 + (r[0]! % 0xfe) // 0x01–0xfe: 32 bytes in RLP, below secp256k1's order
  s[0] = 1 + (s[0]! % 0x7e) // 0x01–0x7e: 32 bytes, at most n/2 (EIP-2's low s)
  return { yParity: (seed[31]! & 1) as 0 | 1, r, s }
}

// RLP (Ethereum yellow paper, appendix B): only what the transaction envelope needs

/** The raw encodings of the items of the RLP list that starts at `at` and must end where `bytes` ends. */
function readList(bytes: Uint8Array, at: number): Uint8Array[] {
  const list = readItem(bytes, at)
  if (!list.isList) throw notATransaction('its body is not an RLP list')
  if (list.end !== bytes.length) throw notATransaction('bytes follow the RLP list')
  const items: Uint8Array[] = []
  for (let pos = list.payload; pos < list.end;) {
    const item = readItem(bytes, pos, list.end)
    items.push(bytes.subarray(pos, item.end))
    pos = item.end
  }
  return items
}

/** One item's header: where its payload starts, where it ends, and whether it is a list. */
function readItem(bytes: Uint8Array, at: number, limit = bytes.length): { isList: boolean; payload: number; end: number } {
  const prefix = bytes[at]
  if (prefix === undefined || at >= limit) throw notATransaction('the RLP ends early')
  if (prefix < 0x80) return { isList: false, payload: at, end: at + 1 }
  const isList = prefix >= 0xc0
  const short = prefix - (isList ? 0xc0 : 0x80)
  let payload = at + 1
  let length = short
  if (short > 55) {
    const lengthBytes = short - 55
    if (at + 1 + lengthBytes > limit || bytes[at + 1] === 0) throw notATransaction('an RLP length is malformed')
    length = Number(bigEndian(bytes.subarray(at + 1, at + 1 + lengthBytes)))
    payload = at + 1 + lengthBytes
  }
  const end = payload + length
  if (end > limit) throw notATransaction('the RLP ends early')
  return { isList, payload, end }
}

/** The unsigned integer an RLP string item (its raw encoding) holds. */
function readUint(raw: Uint8Array): bigint {
  const item = readItem(raw, 0)
  if (item.isList) throw notATransaction('a number is an RLP list')
  return bigEndian(raw.subarray(item.payload, item.end))
}

function bigEndian(bytes: Uint8Array): bigint {
  let value = 0n
  for (const byte of bytes) value = (value << 8n) | BigInt(byte)
  return value
}

const isEmptyString = (raw: Uint8Array) => raw.length === 1 && raw[0] === 0x80

function encodeBytes(payload: Uint8Array): Uint8Array {
  if (payload.length === 1 && payload[0]! < 0x80) return payload
  return concat([header(0x80, payload.length), payload])
}

const encodeUint = (value: bigint) => encodeBytes(minimalBytes(value))

/** Big-endian, no leading zero byte; 0 is no bytes. */
function minimalBytes(value: bigint): Uint8Array {
  const hex = value === 0n ? '' : value.toString(16)
  return hexToBytes(`0x${hex.length % 2 ? '0' : ''}${hex}`)
}

function encodeList(items: Uint8Array[]): Uint8Array {
  const payload = concat(items)
  return concat([header(0xc0, payload.length), payload])
}

function header(offset: number, length: number): Uint8Array {
  if (length < 56) return Uint8Array.of(offset + length)
  const lengthBytes = minimalBytes(BigInt(length))
  return concat([Uint8Array.of(offset + 55 + lengthBytes.length), lengthBytes])
}

function hexToBytes(hex: `0x${string}`): Uint8Array {
  const bytes = new Uint8Array((hex.length - 2) / 2)
  for (let i = 0; i < bytes.length; i++) bytes[i] = parseInt(hex.slice(2 + 2 * i, 4 + 2 * i), 16)
  return bytes
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0))
  let at = 0
  for (const part of parts) {
    out.set(part, at)
    at += part.length
  }
  return out
}
