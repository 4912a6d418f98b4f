import { InvalidQueryError } from '../core/contract/errors'
import { MAX_UINT256, type TransactionFees } from '../core/fee-math/replacement'
import { parseGwei } from '../core/units'

/** The query parameters of GET /networks/{chainId}/replacementFees. */
export const REPLACEMENT_QUERY_PARAMETERS = ['maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas', 'gasPrice'] as const

const EXPECTED = 'send maxFeePerGas and maxPriorityFeePerGas (and maxFeePerBlobGas for a blob transaction), or gasPrice alone'

/** Input echoed in messages is cut short. */
const preview = (raw: string) => (raw.length > 32 ? `${raw.slice(0, 32)}…` : raw)

/**
 * One fee of the query, decimal gwei, strictly: digits, at most 9 of them after the point, no sign,
 * exponent, leading zero, space or hex (the gwei parser's own pattern), at most 2^256 − 1 wei.
 * @returns wei
 * @throws InvalidQueryError naming the parameter and what is wrong
 */
export function parseFeeParameter(name: string, raw: string): bigint {
  const bad = (problem: string) => new InvalidQueryError(name, problem)
  if (raw === '') throw bad('is empty: give a fee in gwei, such as 1.5.')
  if (raw.startsWith('-')) throw bad(`is negative ('${preview(raw)}'): a fee is 0 or more gwei.`)
  if (/^[0-9.]*[eE][+-]?[0-9]*$/.test(raw)) throw bad(`has an exponent ('${preview(raw)}'): write the decimal gwei amount, such as 1.5.`)
  if (/^[0-9]+\.[0-9]{10,}$/.test(raw)) throw bad(`has more than 9 decimals ('${preview(raw)}'): 1 wei is 0.000000001 gwei.`)
  let wei: bigint
  try {
    wei = parseGwei(raw)
  } catch {
    throw bad(
      `is not a decimal gwei amount ('${preview(raw)}'): digits with at most 9 after the point, no sign, exponent, leading zero or hex, such as 1.5.`,
    )
  }
  if (wei > MAX_UINT256) throw bad(`is past 2^256 − 1 wei ('${preview(raw)}'), the most a fee field can hold.`)
  return wei
}

/**
 * The pending transaction's fees from the query of GET replacementFees: maxFeePerGas and maxPriorityFeePerGas
 * (EIP-1559), plus maxFeePerBlobGas for a blob transaction; or gasPrice alone (legacy).
 * @returns the fees, wei
 * @throws InvalidQueryError (400) naming the parameter: unknown, repeated, missing, malformed, both
 *   gasPrice and EIP-1559 fields, or a max priority fee above the max fee
 */
export function parseReplacementQuery(query: URLSearchParams): TransactionFees {
  const values = new Map<string, string>()
  for (const [name, value] of query) {
    if (!(REPLACEMENT_QUERY_PARAMETERS as readonly string[]).includes(name)) throw new InvalidQueryError(name, `is unknown: ${EXPECTED}.`)
    if (values.has(name)) throw new InvalidQueryError(name, 'is given more than once.')
    values.set(name, value)
  }
  const fee = (name: string) => {
    const raw = values.get(name)
    return raw === undefined ? undefined : parseFeeParameter(name, raw)
  }
  const gasPrice = fee('gasPrice')
  const maxFeePerGas = fee('maxFeePerGas')
  const maxPriorityFeePerGas = fee('maxPriorityFeePerGas')
  const maxFeePerBlobGas = fee('maxFeePerBlobGas')
  if (gasPrice !== undefined) {
    const typed = ['maxFeePerGas', 'maxPriorityFeePerGas', 'maxFeePerBlobGas'].find((n) => values.has(n))
    if (typed) throw new InvalidQueryError(typed, 'cannot be sent with gasPrice: a legacy transaction has gasPrice alone.')
    return { type: 'legacy', gasPrice }
  }
  if (maxFeePerGas === undefined && maxPriorityFeePerGas === undefined && maxFeePerBlobGas === undefined) {
    throw new InvalidQueryError('maxFeePerGas', `is missing: ${EXPECTED}.`)
  }
  if (maxFeePerGas === undefined) throw new InvalidQueryError('maxFeePerGas', 'is missing: it goes with maxPriorityFeePerGas.')
  if (maxPriorityFeePerGas === undefined) throw new InvalidQueryError('maxPriorityFeePerGas', 'is missing: it goes with maxFeePerGas.')
  if (maxPriorityFeePerGas > maxFeePerGas) {
    throw new InvalidQueryError(
      'maxPriorityFeePerGas',
      'is above maxFeePerGas: no node takes such a transaction (the tip is part of the max fee).',
    )
  }
  return maxFeePerBlobGas === undefined
    ? { type: 'eip1559', maxFeePerGas, maxPriorityFeePerGas }
    : { type: 'blob', maxFeePerGas, maxPriorityFeePerGas, maxFeePerBlobGas }
}
