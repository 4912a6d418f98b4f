// A JSON-RPC node that replays a recorded window (gas-api-blocks/1, or a dataset of ../shared/data) in
// real time: the service runs on recorded real fee dynamics instead of synthetic traffic. Not deployed.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { weightedPercentile } from '../../lib/core/evaluation/judge'
import type { RecordedBlock, Recording } from '../record/recording'

export type ReplayNode = {
  url: string
  chainId: number
  /** The replayed chain's head right now (block i of the recording is block number i). */
  headNumber(): number
  /** Recorded blocks in all. */
  length: number
  /** The block interval the replay runs at, ms (the recording's, divided by the speed). */
  intervalMs: number
  close(): Promise<void>
}

export type ReplayOptions = {
  recording: Recording
  /** Block number the replay starts at (default: half the recording, at most 500): earlier blocks are history. */
  startAt?: number
  /** How many times faster than the recording (default 1: real time). */
  speed?: number
  /** Blocks the 'finalized' tag lags the head (default 64, as on Ethereum). */
  finalizedDepth?: number
  port?: number
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`

/** The recording's own interval: from its timestamps, else its header's nominal one. */
function recordedIntervalMs(rec: Recording): number {
  const first = rec.blocks[0]
  const last = rec.blocks.at(-1)
  if (first?.timestamp !== undefined && last?.timestamp !== undefined && last.number > first.number) {
    return ((last.timestamp - first.timestamp) * 1000) / (last.number - first.number)
  }
  if (!rec.header.nominalBlockIntervalMs) throw new Error(`${rec.header.source}: no timestamps and no nominal block interval`)
  return rec.header.nominalBlockIntervalMs
}

/**
 * eth_feeHistory's reward row of a recorded block: the gas-weighted percentiles of its transactions'
 * effective tips, as geth computes them. null when the recording has no per-transaction tips (a
 * base-fee-only or percentile-only window): the node then sends no reward row, as some clients do
 * for blocks without transactions, rather than invent one.
 */
export function rewardRow(b: RecordedBlock, percentiles: readonly number[]): string[] | null {
  if (!b.txs) return null
  if (b.txs.length === 0) return percentiles.map(() => '0x0')
  const sorted = b.txs.map((t) => ({ tip: BigInt(t.tip), gas: t.gas })).sort((x, y) => (x.tip < y.tip ? -1 : x.tip > y.tip ? 1 : 0))
  return percentiles.map((p) => hex(weightedPercentile(sorted, p)))
}

/**
 * Starts the replay node on 127.0.0.1. Block i of the recording is block number i of the replayed
 * chain, which begins with the recording; its timestamps are laid on the wall clock so that the head
 * is the block due now. The head advances one block per recorded interval (÷ speed) and stops at the
 * recording's last block: a finished replay is a chain whose head no longer moves (the service then
 * marks its answers stale once the head is older than MAX_HEAD_AGE_SECONDS).
 */
export async function startReplayNode(opts: ReplayOptions): Promise<ReplayNode> {
  const { recording } = opts
  const blocks = recording.blocks
  if (blocks.length < 2) throw new Error(`${recording.header.source}: a replay needs at least 2 blocks`)
  const speed = opts.speed ?? 1
  const intervalMs = recordedIntervalMs(recording) / speed
  const startAt = Math.min(blocks.length - 1, opts.startAt ?? Math.min(500, Math.floor(blocks.length / 2)))
  const started = Date.now()
  const headNumber = () => Math.min(blocks.length - 1, startAt + Math.floor((Date.now() - started) / intervalMs))
  // block i's time: the start block is "now" when the replay starts
  const timestampOf = (i: number) => Math.floor((started + (i - startAt) * intervalMs) / 1000)
  const chainId = recording.header.chainId

  const header = (i: number) => {
    const b = blocks[i]
    if (!b) return null
    return {
      number: hex(i),
      timestamp: hex(timestampOf(i)),
      baseFeePerGas: hex(BigInt(b.baseFeePerGas)),
      gasUsed: hex(b.gasUsed),
      gasLimit: hex(b.gasLimit),
    }
  }

  const answer = (method: string, params: unknown[]): unknown => {
    const head = headNumber()
    switch (method) {
      case 'eth_chainId':
        return hex(chainId)
      case 'eth_blockNumber':
        return hex(head)
      case 'eth_getBlockByNumber': {
        const tag = params[0]
        const n =
          tag === 'latest' ? head : tag === 'finalized' || tag === 'safe' ? Math.max(0, head - (opts.finalizedDepth ?? 64)) : Number(tag)
        return Number.isInteger(n) && n <= head ? header(n) : null
      }
      case 'eth_feeHistory': {
        const count = Number(params[0])
        const newest = params[1] === 'latest' ? head : Number(params[1])
        const percentiles = Array.isArray(params[2]) ? (params[2] as number[]) : []
        if (!(count > 0) || !Number.isInteger(newest) || newest > head || newest < 0) {
          throw Object.assign(new Error('invalid block range'), { code: -32602 })
        }
        const oldest = Math.max(0, newest - Math.min(count, 1024) + 1)
        const window = blocks.slice(oldest, newest + 1)
        // the next base fee is the recorded next block's; after the recording's last block it is not
        // known, and is taken as the last one's (within every chain's bound)
        const next = blocks[newest + 1]?.baseFeePerGas ?? window.at(-1)?.baseFeePerGas ?? '0'
        return {
          oldestBlock: hex(oldest),
          baseFeePerGas: [...window.map((b) => hex(BigInt(b.baseFeePerGas))), hex(BigInt(next))],
          gasUsedRatio: window.map((b) => (b.gasLimit > 0 ? b.gasUsed / b.gasLimit : 0)),
          ...(percentiles.length ? { reward: window.map((b) => rewardRow(b, percentiles)) } : {}),
        }
      }
      default:
        throw Object.assign(new Error(`method ${method} not supported by the replay node`), { code: -32601 })
    }
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
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
    const one = (msg: { id?: unknown; method?: string; params?: unknown[] }) => {
      try {
        return { jsonrpc: '2.0', id: msg.id ?? null, result: answer(String(msg.method), msg.params ?? []) }
      } catch (err) {
        return {
          jsonrpc: '2.0',
          id: msg.id ?? null,
          error: { code: (err as { code?: number }).code ?? -32000, message: (err as Error).message },
        }
      }
    }
    const out = Array.isArray(parsed) ? parsed.map(one) : one(parsed as Parameters<typeof one>[0])
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out))
  })
  await new Promise<void>((r) => server.listen(opts.port ?? 0, '127.0.0.1', r))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    chainId,
    headNumber,
    length: blocks.length,
    intervalMs,
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
