import 'server-only'
/** The chains this service answers for, as the catalogues (/v1/supportedNetworks, /v1/supportedChainNames, /chains) list them. */
import type { ChainConfig } from '../chains/registry'
import { feePolicyOf, getChains } from '../chains/registry'
import type { SupportedChainNames, SupportedNetworks } from '../core/contract/schemas'
import { takesBlobTransactions } from '../core/chain-rules/blob-schedule'
import { processSingleton } from '../runtime/process-singleton'

/** The chains this service answers for: OP-stack chains (the client adds their L1 data fee) apart. */
export function supportedNetworks(): SupportedNetworks {
  const chains = [...getChains().values()]
  return {
    fullSupport: chains.filter((c) => !c.opStack).map((c) => c.id),
    partialSupport: { optimism: chains.filter((c) => c.opStack).map((c) => c.id) },
  }
}

/** Each supported chain's name, by decimal chain id. */
export function supportedChainNames(): SupportedChainNames {
  return Object.fromEntries([...getChains().values()].map((c) => [String(c.id), c.name]))
}

/** A supported chain as the catalogues list it. */
export type ServedChain = { chainId: number; name: string; testnet: boolean; blobs: boolean; opStack: boolean }

/** The list per chain registry (one per configuration), so it is the same array until the configuration changes. */
const servedLists = processSingleton('served-chains', () => new WeakMap<Map<number, ChainConfig>, readonly ServedChain[]>())

/** Each supported chain: its id, viem's name, and whether it takes blob transactions; the same array while the configuration stands. */
export function servedChains(): readonly ServedChain[] {
  const chains = getChains()
  let list = servedLists.get(chains)
  if (!list) {
    list = [...chains.values()].map((c) => ({
      chainId: c.id,
      name: c.name,
      testnet: c.testnet ?? false,
      blobs: takesBlobTransactions(c.id, feePolicyOf(c).family),
      opStack: c.opStack ?? false,
    }))
    servedLists.set(chains, list)
  }
  return list
}
