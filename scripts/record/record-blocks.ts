import { z } from 'zod'
import { recordBlock, readFeeHistory, type RecordedBlock, type Recording } from './recording'
import { getRpcClient } from '../../lib/upstream/client'

const Hex = z.string().regex(/^0x[0-9a-fA-F]*$/)
const RpcTxSchema = z.object({
  hash: Hex,
  type: Hex.optional(),
  gasPrice: Hex.optional(),
  maxFeePerGas: Hex.optional(),
  maxPriorityFeePerGas: Hex.optional(),
  gas: Hex,
})
const RpcFullBlockSchema = z.object({
  number: Hex,
  timestamp: Hex,
  baseFeePerGas: Hex.optional(),
  gasUsed: Hex,
  gasLimit: Hex,
  transactions: z.array(RpcTxSchema),
})
const RpcReceiptSchema = z.object({ transactionHash: Hex, gasUsed: Hex, effectiveGasPrice: Hex })

/** A fine grid of reward percentiles, for nodes that serve no full blocks. */
export const FINE_PERCENTILES = [0, 1, 2, 5, 10, 15, 20, 25, 30, 35, 40, 45, 50, 55, 60, 65, 70, 75, 80, 85, 90, 95, 98, 99, 100]

const hex = (n: number) => `0x${n.toString(16)}` as const

/**
 * Records the last `count` blocks of a node: every block with all its transactions' effective tips
 * and gas (from receipts, eth_getBlockReceipts; from the transactions when the node has no such
 * method), or, when the node serves no full blocks, eth_feeHistory rewards on FINE_PERCENTILES.
 * Calls go out in JSON-RPC batches of `batchSize` blocks.
 */
export async function recordBlocks(opts: {
  url: string
  count: number
  batchSize?: number
  timeoutMs?: number
  onProgress?: (done: number) => void
}): Promise<Recording> {
  const client = getRpcClient(opts.url, opts.timeoutMs ?? 30_000)
  const [chainIdHex, headHex] = await Promise.all([
    client.request({ method: 'eth_chainId' }),
    client.request({ method: 'eth_blockNumber' }),
  ])
  const chainId = Number(chainIdHex)
  const head = Number(headHex)
  const first = Math.max(0, head - opts.count + 1)
  const numbers = Array.from({ length: head - first + 1 }, (_, i) => first + i)
  const source = `recorded from chain ${chainId}, blocks ${first}–${head}`
  const batch = opts.batchSize ?? 20
  let receipts = true
  try {
    const blocks: RecordedBlock[] = []
    for (let i = 0; i < numbers.length; i += batch) {
      const chunk = numbers.slice(i, i + batch)
      const fulls = await Promise.all(chunk.map((n) => client.request({ method: 'eth_getBlockByNumber', params: [hex(n), true] })))
      let rs: unknown[] = chunk.map(() => undefined)
      if (receipts) {
        rs = await Promise.all(
          chunk.map((n) => client.request({ method: 'eth_getBlockReceipts' as 'eth_getBlockByNumber', params: [hex(n)] as never })),
        ).catch(() => {
          receipts = false
          return chunk.map(() => undefined)
        })
      }
      if (
        fulls.some(
          (raw) =>
            !Array.isArray((raw as { transactions?: unknown })?.transactions) ||
            (raw as { transactions: unknown[] }).transactions.some((t) => typeof t === 'string'),
        )
      ) {
        throw new NoFullBlocksError()
      }
      fulls.forEach((raw, j) => {
        const block = RpcFullBlockSchema.parse(raw)
        const rec = rs[j] === undefined ? undefined : z.array(RpcReceiptSchema).parse(rs[j])
        blocks.push(recordBlock(block, rec))
      })
      opts.onProgress?.(blocks.length)
    }
    return { header: { format: 'gas-api-blocks/1', chainId, source, tipData: 'full' }, blocks }
  } catch (err) {
    if (!(err instanceof NoFullBlocksError) && !isUnsupported(err)) throw err
  }
  // No full blocks: fee history on a fine grid, timestamps from the first and last headers.
  const history = (await client.request({
    method: 'eth_feeHistory',
    params: [hex(numbers.length), hex(head), FINE_PERCENTILES],
  })) as Parameters<typeof readFeeHistory>[0]
  const header = async (n: number) =>
    (await client.request({ method: 'eth_getBlockByNumber', params: [hex(n), false] })) as { timestamp: string }
  const [h0, h1] = await Promise.all([header(first), header(head)])
  const interval = head > first ? ((Number(h1.timestamp) - Number(h0.timestamp)) * 1000) / (head - first) : undefined
  return readFeeHistory(history, FINE_PERCENTILES, { chainId, source: `${source} (eth_feeHistory)`, nominalBlockIntervalMs: interval })
}

/** The node answered eth_getBlockByNumber(n, true) without transaction objects. */
class NoFullBlocksError extends Error {
  override name = 'NoFullBlocksError'
}

function isUnsupported(err: unknown): boolean {
  const text = String((err as { details?: string; message?: string })?.details ?? (err as Error)?.message ?? '')
  return /not (supported|found|available)|unsupported|does not exist|method/i.test(text)
}
