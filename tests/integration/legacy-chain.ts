import { rpc, rpcBatch } from '@/scripts/devnet/json-rpc'

const GWEI = 1_000_000_000n
/** The gas prices (wei) of the transactions of every seeded block: its cheapest is 1.5 gwei. */
export const SEEDED_PRICES = [1_500_000_000n, 2n * GWEI, 4n * GWEI, 9n * GWEI]

/**
 * Mines `blocks` blocks on the berlin anvil (mining only on evm_mine), each with one legacy transfer
 * at each of SEEDED_PRICES, from the node's unlocked accounts.
 */
export async function seedLegacyBlocks(url: string, blocks: number): Promise<void> {
  const accounts = await rpc<string[]>(url, 'eth_accounts')
  for (let b = 0; b < blocks; b++) {
    const sent = await rpcBatch(
      url,
      SEEDED_PRICES.map((price, i) => ({
        method: 'eth_sendTransaction',
        params: [
          {
            from: accounts[i % accounts.length],
            to: '0x000000000000000000000000000000000000dEaD',
            value: '0x1',
            gas: '0x5208',
            gasPrice: `0x${price.toString(16)}`,
          },
        ],
      })),
    )
    const failed = sent.find((r) => r.error)
    if (failed?.error) throw new Error(`eth_sendTransaction: ${failed.error.message}`)
    await rpc(url, 'evm_mine')
  }
}

type FullBlock = { number: string; baseFeePerGas?: string; transactions: { type: string; gasPrice: string }[] }

/** The node's own blocks `from`..`to`, with their transactions, read directly. */
export async function legacyBlocks(url: string, from: number, to: number): Promise<FullBlock[]> {
  const out: FullBlock[] = []
  for (let n = from; n <= to; n++) out.push(await rpc<FullBlock>(url, 'eth_getBlockByNumber', [`0x${n.toString(16)}`, true]))
  return out
}
