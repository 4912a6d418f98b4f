import { parseTransaction, type Hex } from 'viem'
import { InvalidQueryError } from '../core/contract/errors'
import { MAX_TX_BYTES, MIN_TX_GAS, type TransactionCostQuery } from '../core/fee-math/transaction-cost'
import { parseLane } from './lane-query'

/** The query parameters of GET /networks/{chainId}/transactionCost. */
export const TRANSACTION_COST_QUERY_PARAMETERS = ['gas', 'txBytes', 'tx', 'lane'] as const

const EXPECTED =
  'send gas (a decimal integer), and optionally txBytes (the unsigned transaction\u2019s size) or tx (the unsigned transaction, 0x hex)'

/** Input echoed in messages is cut short. */
const preview = (raw: string) => (raw.length > 32 ? `${raw.slice(0, 32)}…` : raw)

/**
 * A decimal integer of the query, strictly: digits only, no sign, point, exponent, leading zero or hex.
 * @throws InvalidQueryError naming the parameter and what is wrong
 */
function parseInteger(name: string, raw: string, min: bigint, max: bigint): bigint {
  const bad = (problem: string) => new InvalidQueryError(name, problem)
  if (raw === '') throw bad('is empty: give a decimal integer, such as 21000.')
  if (raw.startsWith('-')) throw bad(`is negative ('${preview(raw)}').`)
  if (/^0[xX]/.test(raw)) throw bad(`is hex ('${preview(raw)}'): write a decimal integer, such as 21000.`)
  if (/^[0-9.]*[eE][+-]?[0-9]*$/.test(raw)) throw bad(`has an exponent ('${preview(raw)}'): write every digit, such as 21000.`)
  if (/^[0-9]*\.[0-9]*$/.test(raw)) throw bad(`is not a whole number ('${preview(raw)}').`)
  if (!/^(0|[1-9][0-9]*)$/.test(raw)) throw bad(`is not a decimal integer ('${preview(raw)}'): digits only, no sign or leading zero.`)
  const value = BigInt(raw)
  if (value < min) throw bad(`is below ${min}${name === 'gas' ? ', the gas every transaction pays' : ''}.`)
  if (value > max) throw bad(`is above ${max}${name === 'txBytes' ? ' bytes (128 KiB), the largest transaction a node takes' : ''}.`)
  return value
}

/** The query's unsigned serialized transaction (the L1 fee adds a signature, as the chain will charge it). @throws InvalidQueryError */
function parseUnsignedTx(raw: string): Hex {
  const bad = (problem: string) => new InvalidQueryError('tx', problem)
  if (!/^0x([0-9a-fA-F]{2})+$/.test(raw)) throw bad(`is not 0x-prefixed hex of whole bytes ('${preview(raw)}').`)
  if ((raw.length - 2) / 2 > MAX_TX_BYTES)
    throw bad(`is longer than ${MAX_TX_BYTES} bytes (128 KiB), the largest transaction a node takes.`)
  let parsed: ReturnType<typeof parseTransaction>
  try {
    parsed = parseTransaction(raw as Hex)
  } catch {
    throw bad(
      `is not a serialized transaction ('${preview(raw)}'): send the unsigned transaction as viem's serializeTransaction writes it.`,
    )
  }
  const signed = parsed as { r?: unknown; s?: unknown; v?: unknown; yParity?: unknown }
  if (signed.r !== undefined || signed.s !== undefined) {
    throw bad('is signed: send the unsigned transaction (the L1 fee adds the signature, as the chain does).')
  }
  return raw.toLowerCase() as Hex
}

/**
 * The query of GET transactionCost: `gas` (required, a decimal integer of at least 21,000), and at most one
 * of `txBytes` (the unsigned serialized size, 1–131,072) and `tx` (the unsigned transaction); `lane` (./lane-query.ts).
 * @throws InvalidQueryError (400) naming the parameter
 */
export function parseTransactionCostQuery(query: URLSearchParams): TransactionCostQuery {
  const values = new Map<string, string>()
  for (const [name, value] of query) {
    if (!(TRANSACTION_COST_QUERY_PARAMETERS as readonly string[]).includes(name))
      throw new InvalidQueryError(name, `is unknown: ${EXPECTED}.`)
    if (values.has(name)) throw new InvalidQueryError(name, 'is given more than once.')
    values.set(name, value)
  }
  const rawGas = values.get('gas')
  if (rawGas === undefined) throw new InvalidQueryError('gas', `is missing: ${EXPECTED}.`)
  // far above any chain's cap (checked against the window), and a JSON number without loss
  const gas = parseInteger('gas', rawGas, MIN_TX_GAS, BigInt(Number.MAX_SAFE_INTEGER))
  const rawBytes = values.get('txBytes')
  const rawTx = values.get('tx')
  if (rawBytes !== undefined && rawTx !== undefined) {
    throw new InvalidQueryError('txBytes', 'cannot be sent with tx: the size is that of tx.')
  }
  const lane = parseLane(query)
  const laneField = lane === undefined ? {} : { lane }
  if (rawTx !== undefined) return { gas, tx: parseUnsignedTx(rawTx), ...laneField }
  if (rawBytes !== undefined) return { gas, txBytes: Number(parseInteger('txBytes', rawBytes, 1n, BigInt(MAX_TX_BYTES))), ...laneField }
  return { gas, ...laneField }
}
