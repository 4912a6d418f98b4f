import { InvalidQueryError } from '../core/contract/errors'
import type { Lane } from '../core/fee-math/chain-levels'

/** The lanes a query may name: `small` (every chain's, the default) and `big` (HyperEVM's big blocks). */
export const LANES = ['small', 'big'] as const

/**
 * The `lane` of a fee endpoint's query (suggestedGasFees, gasPrices, transactionCost); undefined when absent. Other
 * parameters are left to the endpoint. Whether the chain has the lane is lib/fees' to say (it knows the chain).
 * @throws InvalidQueryError (400) naming `lane`: repeated, or not one of LANES
 */
export function parseLane(query: URLSearchParams): Lane | undefined {
  const values = query.getAll('lane')
  if (values.length === 0) return undefined
  if (values.length > 1) throw new InvalidQueryError('lane', 'is given more than once.')
  const lane = values[0]!
  if (!(LANES as readonly string[]).includes(lane)) {
    throw new InvalidQueryError('lane', `is '${lane.slice(0, 32)}': send small (the default) or big (HyperEVM's big blocks).`)
  }
  return lane as Lane
}
