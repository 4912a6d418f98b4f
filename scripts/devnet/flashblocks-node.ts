import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'

/**
 * A fake OP-stack node that builds its blocks in Flashblocks on the wall clock, as Base does
 * (ethereum-optimism/specs protocol/flashblocks.md; op-rbuilder's cumulative rule): every `blockMs` a block of
 * `blockMs / pieceMs` pieces; piece 0 holds the deposit only, piece j admits the pool's transactions highest tip
 * first while the block's cumulative gas plus a transaction's gas LIMIT stays within min(j · floor(L/N), L).
 * `pending` is the block under construction as far as its pieces got (or, with `pending: 'latest'`, the latest
 * block, as a node without flashblocks answers). A burst sends more gas each piece than a piece holds.
 */

export type FlashblocksNodeOptions = {
  chainId: number
  blockMs?: number
  pieceMs?: number
  gasLimit?: number
  /** The base fee of every block, wei. */
  baseFee?: bigint
  pending?: 'pieces' | 'latest'
}

type Tx = { hash: string; gas: number; tip: bigint }
type Piece = { index: number; txs: Tx[]; at: number }
type Block = { number: number; timestamp: number; gasUsed: number; pieces: Piece[] }

export type FlashblocksNode = {
  url: string
  /** JSON-RPC calls received: every method, and `pending` reads apart. */
  calls: () => { total: number; pending: number; feeHistory: number }
  burst(on: boolean): void
  /** The block under construction now and its pieces so far (after catching up with the wall clock). */
  building(): Block
  /** Sealed blocks, newest last. */
  sealed(): Block[]
  piecesPerBlock: number
  gasPerPiece: number
  close(): Promise<void>
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`
const DEPOSIT_GAS = 45_000
const HISTORY = 1_000

export async function startFlashblocksNode(opts: FlashblocksNodeOptions): Promise<FlashblocksNode> {
  const blockMs = opts.blockMs ?? 2_000
  const pieceMs = opts.pieceMs ?? 200
  const limit = opts.gasLimit ?? 60_000_000
  const baseFee = opts.baseFee ?? 10_000_000n
  const N = Math.round(blockMs / pieceMs)
  const perPiece = Math.floor(limit / N)
  // block HISTORY + 1 starts building now, on a whole slot of the wall clock
  const t0 = Math.ceil(Date.now() / 1000) * 1000 - blockMs
  const stamp0 = Math.floor(t0 / 1000)
  let seq = 0
  let seed = 1
  const rand = () => ((seed = (seed * 16_807) % 2_147_483_647) - 1) / 2_147_483_646
  const txHash = () => `0x${(++seq).toString(16).padStart(64, '0')}`
  const history: Block[] = Array.from({ length: HISTORY + 1 }, (_, n) => ({
    number: n,
    timestamp: stamp0 - ((HISTORY - n) * blockMs) / 1000,
    gasUsed: Math.round(limit * 0.2),
    pieces: [{ index: 1, at: 0, txs: [1n, 2n, 3n].map((k) => ({ hash: txHash(), gas: 21_000, tip: k * 1_000_000n })) }],
  }))
  let building: Block = { number: HISTORY + 1, timestamp: stamp0 + blockMs / 1000, gasUsed: 0, pieces: [] }
  let pool: Tx[] = []
  let bursting = false
  const counts = { total: 0, pending: 0, feeHistory: 0 }

  /** Builds every piece due by `now`, sealing blocks on the way. */
  const catchUp = (now: number) => {
    for (;;) {
      const j = building.pieces.length
      // the block seals with its last piece; the next one's piece 0 comes at the same moment
      if (j > N) {
        history.push(building)
        building = { number: building.number + 1, timestamp: building.timestamp + blockMs / 1000, gasUsed: 0, pieces: [] }
        continue
      }
      const due = t0 + (building.number - HISTORY - 1) * blockMs + j * pieceMs
      if (due > now) return
      if (j === 0) {
        building.gasUsed = DEPOSIT_GAS
        building.pieces.push({ index: 0, at: due, txs: [] })
        continue
      }
      // this piece's arrivals: a few transfers at 0.001–0.005 gwei; in a burst, 1M-gas transactions at 0.05–0.5 gwei
      for (let i = 0; i < 3; i++) pool.push({ hash: txHash(), gas: 21_000, tip: BigInt(1_000_000 + Math.floor(rand() * 4_000_000)) })
      if (bursting) {
        for (let i = 0; i < Math.ceil((1.5 * perPiece) / 1_000_000); i++)
          pool.push({ hash: txHash(), gas: 1_000_000, tip: BigInt(50_000_000 + Math.floor(rand() * 450_000_000)) })
      }
      pool.sort((a, b) => (a.tip > b.tip ? -1 : a.tip < b.tip ? 1 : 0))
      const budget = Math.min(j * perPiece, limit)
      const taken: Tx[] = []
      const left: Tx[] = []
      for (const tx of pool) {
        if (building.gasUsed + tx.gas <= budget) {
          building.gasUsed += tx.gas
          taken.push(tx)
        } else left.push(tx)
      }
      pool = left.slice(0, 2_000)
      building.pieces.push({ index: j, at: due, txs: taken })
    }
  }

  function setBurst(on: boolean) {
    catchUp(Date.now())
    bursting = on
    // a burst that ends takes its transactions with it (they were sent elsewhere or dropped)
    if (!on) pool = pool.filter((tx) => tx.gas !== 1_000_000)
  }

  const userTxs = (b: Block) => b.pieces.flatMap((p) => p.txs)
  const txJson = (tx: Tx) => ({
    hash: tx.hash,
    type: '0x2',
    gas: hex(tx.gas),
    maxPriorityFeePerGas: hex(tx.tip),
    maxFeePerGas: hex(2n * baseFee + tx.tip),
  })
  const blockJson = (b: Block, full: boolean, pendingBlock: boolean) => ({
    number: hex(b.number),
    hash: pendingBlock ? `0x${'0'.repeat(64)}` : hex(BigInt(b.number) * 7_919n + 1n).padEnd(66, '0'),
    timestamp: hex(b.timestamp),
    baseFeePerGas: hex(baseFee),
    gasLimit: hex(limit),
    gasUsed: hex(b.gasUsed),
    transactions: [
      full
        ? { hash: `0x${'d'.repeat(62)}${(b.number % 256).toString(16).padStart(2, '0')}`, type: '0x7e', gas: hex(DEPOSIT_GAS) }
        : hex(b.number),
      ...userTxs(b).map((tx) => (full ? txJson(tx) : tx.hash)),
    ],
  })

  const answer = (method: string, params: unknown[]): unknown => {
    catchUp(Date.now())
    const head = history.at(-1)!
    if (method === 'eth_chainId') return hex(opts.chainId)
    if (method === 'eth_blockNumber') return hex(head.number)
    if (method === 'eth_call') return '0x'
    if (method === 'eth_getBlockByNumber') {
      const tag = params[0] as string
      if (tag === 'pending') {
        counts.pending++
        return blockJson(opts.pending === 'latest' ? head : building, params[1] === true, opts.pending !== 'latest')
      }
      const n = tag === 'latest' ? head.number : tag === 'finalized' ? head.number - 64 : Number(tag)
      const b = history[n]
      return b ? blockJson(b, params[1] === true, false) : null
    }
    if (method === 'eth_feeHistory') {
      counts.feeHistory++
      const newest = params[1] === 'latest' ? head.number : Number(params[1])
      const blocks = history.slice(Math.max(0, newest - Number(params[0]) + 1), newest + 1)
      const pcts = params[2] as number[]
      return {
        oldestBlock: hex(blocks[0]!.number),
        baseFeePerGas: [...blocks.map(() => hex(baseFee)), hex(baseFee)],
        gasUsedRatio: blocks.map((b) => b.gasUsed / limit),
        reward: blocks.map((b) => {
          const tips = userTxs(b).map((t) => t.tip)
          return pcts.map((p) => hex(tips.length ? percentileNearestRank(tips, p) : 0n))
        }),
      }
    }
    throw Object.assign(new Error(`method ${method} not found`), { code: -32601 })
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    // POST /__burst/on|off: the burst from another process (the browser tests')
    const control = /^\/__burst\/(on|off)$/.exec(req.url ?? '')
    if (req.method === 'POST' && control) {
      setBurst(control[1] === 'on')
      res.writeHead(204).end()
      return
    }
    let body = ''
    for await (const chunk of req) body += chunk
    const one = (msg: { id: number; method: string; params?: unknown[] }) => {
      counts.total++
      try {
        return { jsonrpc: '2.0', id: msg.id, result: answer(msg.method, msg.params ?? []) }
      } catch (err) {
        return { jsonrpc: '2.0', id: msg.id, error: { code: (err as { code?: number }).code ?? -32000, message: (err as Error).message } }
      }
    }
    const parsed = JSON.parse(body) as Parameters<typeof one>[0] | Parameters<typeof one>[0][]
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(Array.isArray(parsed) ? parsed.map(one) : one(parsed)))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  return {
    url: `http://127.0.0.1:${(server.address() as { port: number }).port}`,
    calls: () => ({ ...counts }),
    burst: setBurst,
    building: () => (catchUp(Date.now()), building),
    sealed: () => (catchUp(Date.now()), history),
    piecesPerBlock: N,
    gasPerPiece: perPiece,
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }
}
