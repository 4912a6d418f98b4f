// A fake node of a live chain, on loopback: it mines a block every `intervalMs` (or when told), every
// block's fees, extraData and predeploy state a pure function of its number, so a test computes what any
// block held from the block number an answer names. eth_call honours its block tag (a block not mined
// yet is an error, as geth's "header not found"), and every eth_call is logged with the tag it carried.
import { randomUUID } from 'node:crypto'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import type { Hex } from 'viem'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'
import { predeployCalls, type Contracts } from './predeploy-calls'

/** One block of the chain: amounts in wei. */
export type RollupBlock = { baseFee: bigint; gasUsedRatio: number; tips: bigint[]; extraData?: Hex }

/** A chain, as data: every block a pure function of its number. */
export type RollupChain = {
  chainId: number
  /** The head when the node starts. */
  startHead: number
  /** A block every this many ms (a whole number of seconds: timestamps are whole seconds). */
  intervalMs: number
  block(n: number): RollupBlock
  /** The predeploys' getters and their values at block n (none: no contract answers but Multicall3). */
  contractsAt?(n: number): Contracts
  /** Multicall3's address (default: the canonical one); false: the chain has none. */
  multicall3?: string | false
  /** Every block's gas limit (default 30M). */
  gasLimit?: number
}

/** An eth_call the node received: its target, selector, the block tag as sent, and aggregate3's inner selectors. */
export type LoggedCall = { to: string; selector: string; tag: unknown; inner?: string[]; error?: string }

export type RollupNode = {
  url: string
  chain: RollupChain
  /** The head now. */
  head(): number
  /** Block n's timestamp, unix seconds. */
  timestampOf(n: number): number
  /** Mines `blocks` more at once (on top of the timed ones, if any). */
  mine(blocks?: number): void
  /** JSON-RPC method names received, in order. */
  calls: string[]
  /** Every eth_call received. */
  ethCalls: LoggedCall[]
  /** HTTP requests received. */
  requests(): number
  close(): Promise<void>
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const rpcError = (code: number, message: string) => Object.assign(new Error(message), { code })
/** How far 'safe' and 'finalized' trail the head. */
const FINALIZED_DEPTH = 64

/**
 * Starts the node. `timed` (default true): a block every chain.intervalMs of real time (performance.now, so a
 * test that fakes Date does not move the chain); false: blocks only through mine().
 */
export async function startRollupNode(chain: RollupChain, opts: { timed?: boolean } = {}): Promise<RollupNode> {
  if (chain.intervalMs % 1000 !== 0 || chain.intervalMs <= 0) throw new Error('intervalMs must be a whole number of seconds')
  const timed = opts.timed ?? true
  const startedAt = performance.now()
  const startSeconds = Math.floor(Date.now() / 1000)
  let mined = 0
  const head = () => chain.startHead + mined + (timed ? Math.floor((performance.now() - startedAt) / chain.intervalMs) : 0)
  const timestampOf = (n: number) => startSeconds + ((n - chain.startHead) * chain.intervalMs) / 1000
  const call = predeployCalls({ contractsAt: (n) => chain.contractsAt?.(n) ?? {}, multicall3: chain.multicall3 })
  const gasLimit = chain.gasLimit ?? 30_000_000

  /** A block tag as a number, or throws as a node does. */
  const blockOf = (tag: unknown, now: number): number => {
    if (tag === undefined || tag === 'latest' || tag === 'pending') return now
    if (tag === 'safe' || tag === 'finalized') return Math.max(0, now - FINALIZED_DEPTH)
    if (tag === 'earliest') return 0
    if (typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)) return Number(tag)
    if (typeof tag === 'object' && tag !== null && 'blockNumber' in tag) return Number((tag as { blockNumber: string }).blockNumber)
    throw rpcError(-32602, `invalid block tag ${JSON.stringify(tag)}`)
  }
  const header = (n: number) => {
    const b = chain.block(n)
    return {
      number: hex(n),
      hash: `0x${n.toString(16).padStart(64, '0')}`,
      parentHash: `0x${Math.max(0, n - 1)
        .toString(16)
        .padStart(64, '0')}`,
      timestamp: hex(timestampOf(n)),
      baseFeePerGas: hex(b.baseFee),
      gasLimit: hex(gasLimit),
      gasUsed: hex(Math.round(b.gasUsedRatio * gasLimit)),
      extraData: b.extraData ?? '0x',
      transactions: b.tips.map((_, i) => `0x${(n * 1000 + i).toString(16).padStart(64, '0')}`),
    }
  }

  let requests = 0
  const node: RollupNode = {
    url: '',
    chain,
    head,
    timestampOf,
    mine: (blocks = 1) => {
      mined += blocks
    },
    calls: [],
    ethCalls: [],
    requests: () => requests,
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }

  const answer = (method: string, params: unknown[]): unknown => {
    const now = head()
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
        return {
          oldestBlock: hex(numbers[0] ?? newest),
          baseFeePerGas: [...blocks.map((b) => hex(b.baseFee)), hex(chain.block(newest + 1).baseFee)],
          gasUsedRatio: blocks.map((b) => b.gasUsedRatio),
          reward: blocks.map((b) => pcts.map((p) => hex(b.tips.length ? percentileNearestRank(b.tips, p) : 0n))),
        }
      }
      case 'eth_call': {
        const [tx, tag] = params as [{ to: string; data?: Hex; input?: Hex }, unknown]
        const data = tx.data ?? tx.input ?? '0x'
        const logged: LoggedCall = { to: tx.to.toLowerCase(), selector: data.slice(0, 10), tag }
        node.ethCalls.push(logged)
        try {
          const n = blockOf(tag, now)
          if (n > now) throw rpcError(-32000, 'header not found')
          const result = call({ to: tx.to, data }, n)
          if (result.inner) logged.inner = result.inner
          return result.data
        } catch (err) {
          logged.error = (err as Error).message
          throw err
        }
      }
      default:
        throw rpcError(-32601, `the method ${method} does not exist/is not available`)
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    requests++
    let body = ''
    for await (const chunk of req) body += chunk
    let parsed: unknown
    try {
      parsed = JSON.parse(body)
    } catch {
      res
        .writeHead(400, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'parse error' } }))
      return
    }
    const one = (msg: { id: number; method: string; params?: unknown[] }) => {
      node.calls.push(msg.method)
      try {
        return { jsonrpc: '2.0', id: msg.id, result: answer(msg.method, msg.params ?? []) }
      } catch (err) {
        return { jsonrpc: '2.0', id: msg.id, error: { code: (err as { code?: number }).code ?? -32000, message: (err as Error).message } }
      }
    }
    const out = Array.isArray(parsed) ? parsed.map(one) : one(parsed as Parameters<typeof one>[0])
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  // a path unique to the run: Next's on-disk Data Cache outlives `next start` and keys a chain's window by its RPC URLs
  node.url = `http://127.0.0.1:${(server.address() as { port: number }).port}/rpc-${randomUUID()}`
  return node
}

/** Whether a block tag is a block number (hex quantity), as every read of the L1 parameters must carry. */
export const isBlockNumberTag = (tag: unknown): boolean => typeof tag === 'string' && /^0x[0-9a-fA-F]+$/.test(tag)
