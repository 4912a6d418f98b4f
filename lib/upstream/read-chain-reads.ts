import 'server-only'
import type { Client } from 'viem'
import type { ChainRead } from '../core/chain-rules/fast-chains'
import type { ChainReads } from '../core/types'
import { UpstreamBadResponseError } from '../core/contract/errors'

/**
 * The values a chain's rules read beside its window (chainReadsOf: Sei's eth_gasPrice, HyperEVM's
 * eth_bigBlockGasPrice), asked with the window's own calls so that they leave in its JSON-RPC batch. Neither takes
 * a block: they are the node's view at the head it serves. eth_gasPrice is every fee's floor (Sei): its failure is
 * the read's (a rate limit stays a 503), and an answer that is no quantity a 502. eth_bigBlockGasPrice prices one lane:
 * when it fails its field is left out (that lane answers 502).
 * @example readChainReads(client, ['eth_gasPrice']) // { gasPrice: '1100000000' }
 */
export async function readChainReads(client: Client, reads: readonly ChainRead[]): Promise<ChainReads | undefined> {
  if (reads.length === 0) return undefined
  const values = await Promise.all(
    reads.map(async (method) => {
      const floor = method === 'eth_gasPrice'
      try {
        const raw = await client.request({ method: method as 'eth_gasPrice' })
        if (typeof raw === 'string' && /^0x[0-9a-fA-F]{1,32}$/.test(raw)) return BigInt(raw).toString()
        if (floor) throw new UpstreamBadResponseError("The upstream node's eth_gasPrice, this chain's fee floor, is no quantity.")
        return undefined
      } catch (err) {
        if (floor) throw err
        return undefined
      }
    }),
  )
  const out: ChainReads = {}
  reads.forEach((method, i) => {
    const v = values[i]
    if (v === undefined) return
    if (method === 'eth_gasPrice') out.gasPrice = v
    else out.bigBlockGasPrice = v
  })
  return out
}
