import { InvalidChainIdError, InvalidQueryError } from '../core/contract/errors'
import { parseChainId } from './chain-id'

/** Most chains one multi-chain call or stream may name (GET /v1/suggestedGasFees, GET /v1/stream). */
export const MAX_CHAIN_IDS = 100

const PARAMETER = 'chainIds'

/**
 * Parses the query of a multi-chain route: `chainIds`, one comma-separated list of distinct canonical decimal
 * chain ids (as the path's {chainId}), at most MAX_CHAIN_IDS, and no other parameter.
 * @returns the ids in the order given, or null when `chainIds` is absent (the route answers every supported chain)
 * @throws InvalidQueryError (400), whose message names `chainIds`
 * @example parseChainIdsQuery(new URLSearchParams('chainIds=1,8453')) // [1, 8453]
 */
export function parseChainIdsQuery(query: URLSearchParams): number[] | null {
  for (const name of query.keys())
    if (name !== PARAMETER)
      throw new InvalidQueryError(name, `is not taken here: the only parameter is ${PARAMETER}, a comma-separated list of chain ids.`)
  const given = query.getAll(PARAMETER)
  if (given.length === 0) return null
  if (given.length > 1) throw problem('is given more than once: give one comma-separated list.')
  const raw = given[0] ?? ''
  if (raw === '') throw problem('is empty: give a comma-separated list of decimal chain ids, or leave it out for every supported chain.')
  const entries = raw.split(',')
  if (entries.length > MAX_CHAIN_IDS) throw problem(`names ${entries.length} chains; at most ${MAX_CHAIN_IDS} are taken.`)
  const ids: number[] = []
  const seen = new Set<number>()
  for (const [i, entry] of entries.entries()) {
    if (entry === '') throw problem(`has an empty entry (number ${i + 1}).`)
    let id: number
    try {
      id = parseChainId(entry)
    } catch (err) {
      if (!(err instanceof InvalidChainIdError)) throw err
      throw problem(
        `holds '${entry.slice(0, 32)}', which is not a chain id: a canonical decimal integer (no sign, no leading zero, no hex).`,
      )
    }
    if (seen.has(id)) throw problem(`names chain ${id} twice.`)
    seen.add(id)
    ids.push(id)
  }
  return ids
}

const problem = (text: string) => new InvalidQueryError(PARAMETER, text)
