/**
 * How Blocknative's Gas Platform names chains (`system` + `network`, its GET /chains and the `system`/`network`
 * query of GET /gasprices/blockprices): its own names where it served the chain, else one made from the chain's
 * name, unique among the served chains.
 */

/** Blocknative's names of the chains it served (docs.blocknative.com, "Chains API"). */
const KNOWN: Record<number, { system: string; network: string }> = {
  1: { system: 'ethereum', network: 'main' },
  11155111: { system: 'ethereum', network: 'sepolia' },
  17000: { system: 'ethereum', network: 'holesky' },
  560048: { system: 'ethereum', network: 'hoodi' },
  137: { system: 'polygon', network: 'main' },
  80002: { system: 'polygon', network: 'amoy' },
  10: { system: 'optimism', network: 'main' },
  11155420: { system: 'optimism', network: 'sepolia' },
  8453: { system: 'base', network: 'main' },
  84532: { system: 'base', network: 'sepolia' },
  42161: { system: 'arbitrum', network: 'main' },
  421614: { system: 'arbitrum', network: 'sepolia' },
  59144: { system: 'linea', network: 'main' },
  56: { system: 'bsc', network: 'main' },
  43114: { system: 'avalanche', network: 'main' },
  324: { system: 'zksync', network: 'main' },
}

/** A served chain as the names need it. */
export type NamedChain = { chainId: number; name: string; testnet: boolean }

/** A chain's Blocknative names. */
export type ChainNames = { system: string; network: string }

const slug = (name: string) =>
  name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '') || 'chain'

/**
 * Every served chain's names, by chain id: Blocknative's own, else `system` the chain's name in lower case
 * with dashes and `network` 'main' (or 'testnet'); a pair taken already gets `-<chainId>` on its system.
 */
export function chainNames(chains: readonly NamedChain[]): Map<number, ChainNames> {
  const out = new Map<number, ChainNames>()
  const taken = new Set<string>()
  const take = (id: number, n: ChainNames) => {
    out.set(id, n)
    taken.add(`${n.system}/${n.network}`)
  }
  for (const c of chains) {
    const known = KNOWN[c.chainId]
    if (known) take(c.chainId, known)
  }
  for (const c of chains) {
    if (out.has(c.chainId)) continue
    const made = { system: slug(c.name), network: c.testnet ? 'testnet' : 'main' }
    take(c.chainId, taken.has(`${made.system}/${made.network}`) ? { ...made, system: `${made.system}-${c.chainId}` } : made)
  }
  return out
}
