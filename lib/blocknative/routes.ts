import 'server-only'
/** The handlers of Blocknative's Gas Platform endpoints: parse, call lib/fees, translate (./bodies.ts). */
import { getConfidenceReport, servedChains, type ServedChain } from '../fees'
import { processSingleton } from '../runtime/process-singleton'
import { UnsupportedChainError } from '../core/contract/errors'
import { freshnessHeaders } from '../http/freshness-headers'
import { guarded } from '../http/guard'
import { methodNotAllowed, options } from '../http/routes'
import { baseFeeEstimatesBody, blockPricesBody, chainsBody } from './bodies'
import { chainNames, type ChainNames } from './names'
import { parseChainQuery, parseConfidenceLevels, parseWithBaseFees } from './query'

const JSON_TYPE = { 'content-type': 'application/json; charset=utf-8' }

/** The served chains' names, made once per chain list (lib/fees servedChains keeps one per configuration). */
const namesByList = processSingleton('blocknative-names', () => new WeakMap<readonly ServedChain[], Map<number, ChainNames>>())
function namesNow(): Map<number, ChainNames> {
  const chains = servedChains()
  let names = namesByList.get(chains)
  if (!names) namesByList.set(chains, (names = chainNames(chains)))
  return names
}

/** A chain's names, or the answer every endpoint gives a chain it does not serve. */
function namesOf(names: ReadonlyMap<number, ChainNames>, chainId: number): ChainNames {
  const n = names.get(chainId)
  if (!n) throw new UnsupportedChainError(chainId)
  return n
}

/** GET /gasprices/blockprices?chainid=…&confidenceLevels=…&withBaseFees=… */
async function blockPrices(request: Request): Promise<Response> {
  return guarded('blockprices', request, async ({ setChain }) => {
    const query = new URL(request.url).searchParams
    const names = namesNow()
    const chainId = parseChainQuery(query, names)
    setChain(String(chainId))
    const confidences = parseConfidenceLevels(query)
    const withBaseFees = parseWithBaseFees(query)
    const chain = namesOf(names, chainId)
    const report = await getConfidenceReport(chainId, confidences)
    return new Response(blockPricesBody(report, chain, { withBaseFees }), {
      status: 200,
      headers: { ...JSON_TYPE, ...freshnessHeaders(report.meta) },
    })
  })
}

/** GET /gasprices/basefee-estimates?chainid=… */
async function baseFeeEstimates(request: Request): Promise<Response> {
  return guarded('basefee-estimates', request, async ({ setChain }) => {
    const names = namesNow()
    const chainId = parseChainQuery(new URL(request.url).searchParams, names)
    setChain(String(chainId))
    const chain = namesOf(names, chainId)
    const report = await getConfidenceReport(chainId, [])
    return new Response(baseFeeEstimatesBody(report, chain), { status: 200, headers: { ...JSON_TYPE, ...freshnessHeaders(report.meta) } })
  })
}

/** GET /chains */
async function chains(request: Request): Promise<Response> {
  return guarded(
    'chains',
    request,
    async () =>
      new Response(JSON.stringify(chainsBody(servedChains(), namesNow())), {
        status: 200,
        headers: { ...JSON_TYPE, 'cache-control': 'private, max-age=60' },
      }),
  )
}

const HANDLERS = { blockprices: blockPrices, 'basefee-estimates': baseFeeEstimates, chains }

/** Every method of one Blocknative route: GET answers, OPTIONS lists, the write methods get 405. */
export function blocknativeRoute(name: keyof typeof HANDLERS) {
  return {
    GET: HANDLERS[name],
    OPTIONS: options,
    POST: methodNotAllowed,
    PUT: methodNotAllowed,
    PATCH: methodNotAllowed,
    DELETE: methodNotAllowed,
  }
}
