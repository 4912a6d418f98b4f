// A fake node of a fast chain, on loopback: a block every `intervalMs` of real time (sub-second allowed; timestamps
// are whole seconds, as nodes report them), every block's fees a pure function of its number, so a test computes
// what any block held from the block number an answer names. Besides the usual reads it answers the chain's own
// methods (eth_gasPrice, eth_bigBlockGasPrice), its predeploys through eth_call, and Monad's eth_feeHistory quirk.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Hex } from 'viem'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'
import { predeployCalls, type Contracts } from './predeploy-calls'

/** One block: amounts in wei. */
export type FastBlock = { baseFee: bigint; gasUsedRatio: number; tips: bigint[] }

export type FastChain = {
  chainId: number
  /** The head when the node starts. */
  startHead: number
  /** A block every this many ms. */
  intervalMs: number
  block(n: number): FastBlock
  /** eth_feeHistory's next base fee repeats the newest block's (monad-rpc get_next_block_base_fee). */
  nextRepeatsHead?: boolean
  /** Methods without parameters the node answers besides the usual ones, a quantity at head n (wei). */
  methods?: Record<string, (head: number) => bigint>
  /** The predeploys' getters at block n; Multicall3 answers at its canonical address. */
  contractsAt?(n: number): Contracts
  /** ArbSys.arbBlockNumber answers the L2 block (Arbitrum). */
  arbitrum?: boolean
  /** How far 'finalized' trails the head (default 64; BSC's fast finality: 2). */
  finalizedDepth?: number
  /** The chain takes blobs (BSC): headers and eth_feeHistory carry the blob fields, blob base fee 1 wei, no blobs. */
  blobs?: boolean
  /** Every block's gas limit (default 30M). */
  gasLimit?: number
  /** eth_feeHistory as Sonic's (api/ethapi/api.go FeeHistory): every base fee MinGasPrice (the head's × 110 / 100), gas used 0.99. */
  feeHistoryMinGasPrice?: boolean
}

export type FastChainNode = {
  url: string
  chain: FastChain
  head(): number
  timestampOf(n: number): number
  /** JSON-RPC method names received, in order. */
  calls: string[]
  close(): Promise<void>
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code })

export async function startFastChainNode(chain: FastChain): Promise<FastChainNode> {
  const startedAt = performance.now()
  const startMs = Date.now()
  const head = () => chain.startHead + Math.floor((performance.now() - startedAt) / chain.intervalMs)
  const timestampOf = (n: number) => Math.floor((startMs + (n - chain.startHead) * chain.intervalMs) / 1000)
  const call = predeployCalls({ contractsAt: (n) => chain.contractsAt?.(n) ?? {}, arbitrum: chain.arbitrum })

  const blockOf = (tag: unknown, now: number): number => {
    if (tag === undefined || tag === 'latest' || tag === 'pending') return now
    if (tag === 'safe' || tag === 'finalized') return Math.max(0, now - (chain.finalizedDepth ?? 64))
    if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) return Number(tag)
    throw rpcError(-32602, `invalid block tag ${JSON.stringify(tag)}`)
  }
  const header = (n: number) => {
    const b = chain.block(n)
    return {
      number: hex(n),
      hash: `0x${n.toString(16).padStart(64, '0')}`,
      timestamp: hex(timestampOf(n)),
      baseFeePerGas: hex(b.baseFee),
      gasLimit: hex(chain.gasLimit ?? 30_000_000),
      gasUsed: hex(Math.round(b.gasUsedRatio * (chain.gasLimit ?? 30_000_000))),
      extraData: '0x',
      ...(chain.blobs ? { excessBlobGas: '0x0', blobGasUsed: '0x0' } : {}),
      transactions: b.tips.map((_, i) => `0x${(n * 1000 + i).toString(16).padStart(64, '0')}`),
    }
  }

  const node: FastChainNode = {
    url: '',
    chain,
    head,
    timestampOf,
    calls: [],
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }

  const answer = (method: string, params: unknown[]): unknown => {
    const now = head()
    const own = chain.methods?.[method]
    if (own) return hex(own(now))
    switch (method) {
      case 'eth_chainId':
        return hex(chain.chainId)
      case 'eth_blockNumber':
        return hex(now)
      case 'eth_getBlockByNumber': {
        const n = blockOf(params[0], now)
        return n > now || n < 0 ? null : header(n)
      }
      case 'eth_feeHistory': {
        const count = Number(params[0])
        const newest = blockOf(params[1], now)
        if (newest > now) throw rpcError(-32000, `request beyond head block: requested ${newest}, head ${now}`)
        const pcts = (params[2] as number[] | undefined) ?? []
        const numbers = Array.from({ length: Math.min(count, newest + 1) }, (_, i) => newest - Math.min(count, newest + 1) + 1 + i)
        const blocks = numbers.map((n) => chain.block(n))
        const next = chain.nextRepeatsHead ? chain.block(newest).baseFee : chain.block(newest + 1).baseFee
        const minGasPrice = (chain.block(now).baseFee * 110n) / 100n
        const sonic = chain.feeHistoryMinGasPrice === true
        return {
          oldestBlock: hex(numbers[0] ?? newest),
          baseFeePerGas: sonic ? [...blocks, next].map(() => hex(minGasPrice)) : [...blocks.map((b) => hex(b.baseFee)), hex(next)],
          gasUsedRatio: blocks.map((b) => (sonic ? 0.99 : b.gasUsedRatio)),
          reward: blocks.map((b) => pcts.map((p) => hex(b.tips.length ? percentileNearestRank(b.tips, p) : 0n))),
          ...(chain.blobs ? { baseFeePerBlobGas: [...blocks.map(() => '0x1'), '0x1'], blobGasUsedRatio: blocks.map(() => 0) } : {}),
        }
      }
      case 'eth_call': {
        const [tx, tag] = params as [{ to: string; data?: Hex; input?: Hex }, unknown]
        const n = blockOf(tag, now)
        if (n > now) throw rpcError(-32000, 'header not found')
        return call({ to: tx.to, data: tx.data ?? tx.input ?? '0x' }, n).data
      }
      default:
        throw rpcError(-32601, `the method ${method} does not exist/is not available`)
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    let body = ''
    for await (const chunk of req) body += chunk
    const one = (msg: { id: number; method: string; params?: unknown[] }) => {
      node.calls.push(msg.method)
      try {
        return { jsonrpc: '2.0', id: msg.id, result: answer(msg.method, msg.params ?? []) }
      } catch (err) {
        return { jsonrpc: '2.0', id: msg.id, error: { code: (err as { code?: number }).code ?? -32000, message: (err as Error).message } }
      }
    }
    const parsed = JSON.parse(body) as Parameters<typeof one>[0] | Parameters<typeof one>[0][]
    const out = Array.isArray(parsed) ? parsed.map(one) : one(parsed)
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  // a path unique to the run: Next's on-disk Data Cache outlives `next start` and keys a chain's window by its RPC URLs
  node.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/rpc-${randomUUID()}`
  return node
}
