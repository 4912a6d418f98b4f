/**
 * The query parameters of Blocknative's endpoints (GET /gasprices/blockprices, GET /gasprices/basefee-estimates),
 * parsed strictly: a bad one is a 400 naming it.
 */
import { InvalidQueryError } from '../core/contract/errors'
import { DEFAULT_CONFIDENCE_LEVELS } from '../core/fee-math/confidence'
import type { ChainNames } from './names'

/** Blocknative answers at most this many confidence levels a request. */
export const MAX_CONFIDENCE_LEVELS = 5

/** The chain a request names: Blocknative's default is Ethereum mainnet. */
const DEFAULT_CHAIN_ID = 1

/** Input echoed in messages is cut short. */
const preview = (raw: string) => (raw.length > 32 ? `${raw.slice(0, 32)}…` : raw)

/** The one value of a parameter, or undefined; a repeated one is an error. */
function single(query: URLSearchParams, name: string): string | undefined {
  const all = query.getAll(name)
  if (all.length > 1) throw new InvalidQueryError(name, 'is given more than once.')
  return all[0]
}

/**
 * The chain a query names: `chainid` (or `chainId`), a positive decimal integer, or `system` and `network` as GET
 * /chains names them; Ethereum mainnet when none is given.
 * @param names each served chain's names (./names.ts)
 * @throws InvalidQueryError naming the parameter
 */
export function parseChainQuery(query: URLSearchParams, names: ReadonlyMap<number, ChainNames>): number {
  const raws = ['chainid', 'chainId'].flatMap((name) => {
    const raw = single(query, name)
    return raw === undefined ? [] : [{ name, raw }]
  })
  const ids = raws.map(({ name, raw }) => {
    if (!/^[1-9][0-9]{0,15}$/.test(raw) || !Number.isSafeInteger(Number(raw)))
      throw new InvalidQueryError(name, `must be a positive decimal integer chain id ('${preview(raw)}'), such as 1.`)
    return Number(raw)
  })
  if (ids.length === 2 && ids[0] !== ids[1]) throw new InvalidQueryError('chainId', 'names another chain than chainid.')
  const system = single(query, 'system')
  const network = single(query, 'network')
  let named: number | undefined
  if (system !== undefined || network !== undefined) {
    if (system === undefined)
      throw new InvalidQueryError('system', 'is missing: give system and network together, as GET /chains names them.')
    if (network === undefined)
      throw new InvalidQueryError('network', 'is missing: give system and network together, as GET /chains names them.')
    for (const [id, n] of names) if (n.system === system && n.network === network) named = id
    if (named === undefined)
      throw new InvalidQueryError(
        'system',
        `and network ('${preview(system)}', '${preview(network)}') name no chain this service serves: see GET /chains.`,
      )
  }
  if (named !== undefined && ids.length > 0 && ids[0] !== named)
    throw new InvalidQueryError('system', 'and network name another chain than chainid.')
  return ids[0] ?? named ?? DEFAULT_CHAIN_ID
}

/**
 * `confidenceLevels`: repeated or comma-separated, at most MAX_CONFIDENCE_LEVELS, each an integer from 1 to 99, in
 * the order asked; 99, 95, 90, 80, 70 when none is given.
 * @throws InvalidQueryError naming the parameter
 */
export function parseConfidenceLevels(query: URLSearchParams): number[] {
  const all = query.getAll('confidenceLevels')
  if (all.length === 0) return [...DEFAULT_CONFIDENCE_LEVELS]
  const items = all.flatMap((v) => v.split(','))
  const levels = items.map((raw) => {
    const text = raw.trim()
    if (!/^[1-9][0-9]?$/.test(text))
      throw new InvalidQueryError('confidenceLevels', `holds '${preview(raw)}': each level is an integer from 1 to 99.`)
    return Number(text)
  })
  if (levels.length > MAX_CONFIDENCE_LEVELS)
    throw new InvalidQueryError('confidenceLevels', `holds ${levels.length} levels: at most ${MAX_CONFIDENCE_LEVELS}.`)
  return levels
}

/**
 * `withBaseFees`: `true` or `false` (default false).
 * @throws InvalidQueryError naming the parameter
 */
export function parseWithBaseFees(query: URLSearchParams): boolean {
  const raw = single(query, 'withBaseFees')
  if (raw === undefined || raw === 'false') return false
  if (raw === 'true') return true
  throw new InvalidQueryError('withBaseFees', `must be true or false ('${preview(raw)}').`)
}
