import 'server-only'
import type { Client } from 'viem'
import type { ChainRead } from '../core/chain-rules/fast-chains'
import type { ChainReads } from '../core/types'

/**
 * The values a chain's rules read beside its window (chainReadsOf: Sei's eth_gasPrice, HyperEVM's
 * eth_bigBlockGasPrice), asked with the window's own calls so that they leave in its JSON-RPC batch. Neither takes
 * a block: they are the node's view at the head it serves. Never throws: a call that fails or answers no quantity
 * leaves its field out (a missing eth_gasPrice then fails the read: ./read-from-url.ts; the big lane answers 502).
 * @example readChainReads(client, ['eth_gasPrice']) // { gasPrice: '1100000000' }
 */
export async function readChainReads(client: Client, reads: readonly ChainRead[]): Promise<ChainReads | undefined> {
  if (reads.length === 0) return undefined
  const values = await Promise.all(
    reads.map(async (method) => {
      try {
        const raw = await client.request({ method: method as 'eth_gasPrice' })
        return typeof raw === 'string' && /^0x[0-9a-fA-F]{1,32}$/.test(raw) ? BigInt(raw).toString() : undefined
      } catch {
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
