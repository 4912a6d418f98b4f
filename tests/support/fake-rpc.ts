import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { percentileNearestRank } from '@/lib/core/fee-math/statistics'

/** A block of the fake chain: amounts in wei. */
export type FakeBlock = {
  number: number
  timestamp: number
  baseFee: bigint
  gasUsedRatio: number
  tips: bigint[]
  /** EIP-4844: the block's blob base fee (wei; default 1) and blob fullness (default 0), reported when the node has blobs. */
  blobBaseFee?: bigint
  blobGasUsedRatio?: number
}

export type FakeMode =
  | 'ok'
  | 'garbage' // 200 with a body that is not JSON
  | 'hang' // accepts the request, never answers
  | 'http500'
  | 'wrong-chain'
  | 'no-basefee' // a pre-London chain: headers without baseFeePerGas, eth_feeHistory with base fees 0 and gas prices as rewards
  | 'bad-feehistory' // wrong lengths
  | 'absurd' // a base fee wider than 128 bits
  | 'no-finalized' // rejects the 'finalized' block tag, like nodes without it
  | 'wrong-types' // numbers where hex strings belong
  | 'reorg' // the head is 70 blocks further back than the data the node served before
  | 'stall-body' // sends 200 headers and the first byte of the body, then nothing
  | 'rate-limited' // answers every call with JSON-RPC error -32005 (limit exceeded)
  | 'http429-json' // HTTP 429 with one JSON-RPC error object, code 429 (Alchemy's rate limit)
  | 'batch-error' // HTTP 200 with one JSON-RPC error object, -32005, for the whole batch (Infura's daily limit)
  | 'http503-json-garbage' // HTTP 503 whose content-type says JSON and whose body is not
  | 'short-history' // eth_feeHistory serves only the newest 100 blocks, for 'latest' or any older newest block
  | 'newest-only' // eth_feeHistory serves the newest 10 blocks, whatever newest block it is asked for
  | 'doubled' // every base fee doubled: a consistent chain, but not the one it served before
  | 'slow' // answers correctly, after 1 s
  | 'headers-without-basefee' // headers without baseFeePerGas, but eth_feeHistory with base fees: a broken node

export type FakeRpc = {
  url: string
  /** JSON-RPC method names received, in order. */
  calls: string[]
  /** HTTP requests received. */
  requests: () => number
  mode: FakeMode
  close(): Promise<void>
}

const hex = (n: bigint | number) => `0x${n.toString(16)}`

/**
 * A JSON-RPC server on loopback answering eth_chainId, eth_getBlockByNumber and eth_feeHistory
 * from a list of blocks (rewards: nearest-rank percentiles of each block's tips), with failure modes.
 * `POST /__mode/<mode>` switches the mode from another process.
 */
export type FakeShape = {
  /** The most blocks one eth_feeHistory answer holds, as many providers cap it (default: no cap). */
  feeHistoryCap?: number
  /** The most blocks an eth_feeHistory may ask: more is refused with an error naming it, as some providers do. */
  feeHistoryLimit?: number
  /** How a block without transactions reports its rewards: zeros (default, like geth), [] or null. */
  emptyRewards?: 'zeros' | '[]' | 'null'
  /** How far behind the head the 'finalized' block is (default 64; BSC's fast finality: 2). */
  finalizedDepth?: number
  /** The extraData of every block (OP-stack chains carry their EIP-1559 parameters there). */
  extraData?: string
  /**
   * EIP-4844: eth_feeHistory reports baseFeePerBlobGas and blobGasUsedRatio, this being the next
   * block's blob base fee (wei); absent: the node reports no blob fields.
   */
  nextBlobBaseFee?: bigint
  /** Blob fields only in answers that end at the head, none for older pages (a node behind a mixed load balancer). */
  blobFieldsOnlyAtHead?: boolean
  /** Every block's gas limit (default 30M). */
  gasLimit?: number
  /** What eth_gasPrice answers (wei); absent: the method does not exist. */
  gasPrice?: bigint
  /**
   * OP-stack predeploys answered through eth_call as the deployed contracts of `fork` answer: the
   * GasPriceOracle (0x420…0F) and L1Block (0x420…15) getters that exist in that fork, a revert for
   * those that do not (isIsthmus before Isthmus, isJovian before Jovian, the operator fee getters
   * before Isthmus).
   */
  opStackPredeploys?: {
    fork: 'ecotone' | 'fjord' | 'isthmus' | 'jovian'
    l1BaseFee: bigint
    blobBaseFee: bigint
    baseFeeScalar: number
    blobBaseFeeScalar: number
    operatorFeeScalar?: number
    operatorFeeConstant?: bigint
  }
  /** Arbitrum's ArbGasInfo precompile (0x…6C): getPricesInWei()'s six values, wei. */
  arbGasInfoPrices?: bigint[]
}

const word = (v: bigint | number | boolean) =>
  BigInt(typeof v === 'boolean' ? Number(v) : v)
    .toString(16)
    .padStart(64, '0')

/**
 * An eth_call of a predeploy getter, answered as the chain's contracts do (selectors of their
 * deployed bytecode: specs static/bytecode, ArbGasInfo.sol), or a revert (JSON-RPC error 3).
 */
function predeployCall(opts: FakeShape, call: { to?: string; data?: string; input?: string }): string {
  const to = (call.to ?? '').toLowerCase()
  const selector = (call.data ?? call.input ?? '').slice(0, 10).toLowerCase()
  const revert = () => Object.assign(new Error('execution reverted'), { code: 3 })
  const op = opts.opStackPredeploys
  const forks = ['ecotone', 'fjord', 'isthmus', 'jovian']
  const since = (fork: string) => op !== undefined && forks.indexOf(op.fork) >= forks.indexOf(fork)
  if (op && to === '0x420000000000000000000000000000000000000f') {
    const getters: Record<string, () => bigint | number | boolean> = {
      '0x519b4bd3': () => op.l1BaseFee, // l1BaseFee()
      '0xf8206140': () => op.blobBaseFee, // blobBaseFee()
      '0xc5985918': () => op.baseFeeScalar, // baseFeeScalar()
      '0x68d5dca6': () => op.blobBaseFeeScalar, // blobBaseFeeScalar()
      '0x4ef6e224': () => true, // isEcotone()
      ...(since('fjord') ? { '0x960e3a23': () => true } : {}), // isFjord()
      ...(since('isthmus') ? { '0xb54501bc': () => true } : {}), // isIsthmus()
      ...(since('jovian') ? { '0x105d0b81': () => true } : {}), // isJovian()
    }
    const get = getters[selector]
    if (!get) throw revert()
    return `0x${word(get())}`
  }
  if (op && to === '0x4200000000000000000000000000000000000015' && since('isthmus')) {
    if (selector === '0x4d5d9a2a') return `0x${word(op.operatorFeeScalar ?? 0)}` // operatorFeeScalar()
    if (selector === '0x16d3bc7f') return `0x${word(op.operatorFeeConstant ?? 0n)}` // operatorFeeConstant()
    throw revert()
  }
  if (opts.arbGasInfoPrices && to === '0x000000000000000000000000000000000000006c') {
    if (selector === '0x41b247a8') return `0x${opts.arbGasInfoPrices.map(word).join('')}` // getPricesInWei()
    throw revert()
  }
  // an address with no code answers empty data
  return '0x'
}

/**
 * A fake chain node. Before its first given block the chain goes on, back to block 0, with blocks
 * exactly at the gas target (so the base fee stays the first block's, as EIP-1559 says) carrying the
 * first block's tips: a node of a chain that has its history, whose eth_feeHistory serves any window.
 */
export async function startFakeRpc(
  opts: { chainId: number; blocks: FakeBlock[]; nextBaseFee: bigint; mode?: FakeMode } & FakeShape,
): Promise<FakeRpc> {
  const { blocks } = opts
  const head = blocks.at(-1)
  const first = blocks[0]
  if (!head || !first) throw new Error('a fake chain needs at least one block')
  const slot = (blocks[1]?.timestamp ?? first.timestamp + 12) - first.timestamp
  const given = new Map(blocks.map((b) => [b.number, b]))
  const byNumber = {
    get(n: number): FakeBlock | undefined {
      if (n >= first.number || n < 0) return given.get(n)
      return {
        number: n,
        timestamp: first.timestamp - (first.number - n) * slot,
        baseFee: first.baseFee,
        gasUsedRatio: 0.5,
        tips: first.tips,
      }
    },
  }
  let requests = 0
  const state: FakeRpc = {
    url: '',
    calls: [],
    requests: () => requests,
    mode: opts.mode ?? 'ok',
    close: async () => {
      server.closeAllConnections()
      await new Promise((r) => server.close(r))
    },
  }

  const answer = (method: string, params: unknown[]): unknown => {
    const mode = state.mode
    if (mode === 'rate-limited') throw Object.assign(new Error('daily request count exceeded, request rate limited'), { code: -32005 })
    if (method === 'eth_chainId') return hex(mode === 'wrong-chain' ? opts.chainId + 1 : opts.chainId)
    if (method === 'eth_blockNumber') return hex(head.number)
    if (method === 'eth_call') return predeployCall(opts, params[0] as { to?: string; data?: string })
    if (method === 'eth_gasPrice' && opts.gasPrice !== undefined) return hex(opts.gasPrice)
    if (method === 'eth_getBlockByNumber') {
      const tag = params[0] as string
      if (tag === 'finalized' && mode === 'no-finalized') throw Object.assign(new Error('unknown block tag'), { code: -32602 })
      const h = mode === 'reorg' ? byNumber.get(head.number - 70)! : head
      const b =
        tag === 'latest' ? h : tag === 'finalized' ? byNumber.get(h.number - (opts.finalizedDepth ?? 64)) : byNumber.get(Number(tag))
      if (b && mode === 'wrong-types') return { number: b.number, timestamp: b.timestamp, baseFeePerGas: Number(b.baseFee) }
      if (!b) return null
      return {
        number: hex(b.number),
        timestamp: hex(b.timestamp),
        ...(mode === 'no-basefee' || mode === 'headers-without-basefee' ? {} : { baseFeePerGas: hex(b.baseFee) }),
        ...(opts.extraData ? { extraData: opts.extraData } : {}),
        gasLimit: hex(opts.gasLimit ?? 30e6),
        // like a node without full blocks: transactions only as hashes
        ...(params[1] === true
          ? {
              gasUsed: hex(Math.round(b.gasUsedRatio * (opts.gasLimit ?? 30e6))),
              transactions: b.tips.map((_, i) => `0x${i.toString(16).padStart(64, '0')}`),
            }
          : {}),
      }
    }
    if (method === 'eth_feeHistory') {
      if (opts.feeHistoryLimit !== undefined && Number(params[0]) > opts.feeHistoryLimit)
        throw Object.assign(new Error(`block count ${Number(params[0])} exceeds the maximum of ${opts.feeHistoryLimit}`), { code: -32602 })
      const count = Math.min(
        Number(params[0]),
        opts.feeHistoryCap ?? Number.POSITIVE_INFINITY,
        mode === 'short-history' ? 100 : mode === 'newest-only' ? 10 : Number.POSITIVE_INFINITY,
      )
      const newest =
        params[1] === 'latest' || mode === 'newest-only' ? (mode === 'reorg' ? head.number - 70 : head.number) : Number(params[1])
      if (mode === 'short-history' && newest < head.number - 99)
        throw Object.assign(new Error('block range not available'), { code: -32000 })
      const pcts = params[2] as number[]
      const window: FakeBlock[] = []
      for (let n = Math.max(0, newest - count + 1); n <= newest; n++) {
        const b = byNumber.get(n)
        if (b) window.push(b)
      }
      const oldest = window[0]
      if (!oldest) throw new Error(`no blocks up to ${newest}`)
      const following = byNumber.get(newest + 1)
      const next = newest === head.number ? opts.nextBaseFee : following ? following.baseFee : opts.nextBaseFee
      if (mode === 'wrong-types')
        return {
          oldestBlock: oldest.number,
          baseFeePerGas: [...window.map((b) => Number(b.baseFee)), Number(next)],
          gasUsedRatio: window.map((b) => String(b.gasUsedRatio)),
        }
      const factor = mode === 'doubled' ? 2n : 1n
      // a chain without EIP-1559 (go-ethereum's feehistory.go): base fees 0, rewards the whole gas prices
      const legacy = mode === 'no-basefee'
      const baseFeePerGas = legacy
        ? [...window.map(() => '0x0'), '0x0']
        : [...window.map((b) => hex(b.baseFee * factor)), hex(next * factor)]
      const paid = (b: FakeBlock) => (legacy ? b.tips.map((t) => b.baseFee + t) : b.tips)
      if (mode === 'absurd') baseFeePerGas[0] = `0x1${'0'.repeat(40)}`
      const nextBlob = newest === head.number ? opts.nextBlobBaseFee : (following?.blobBaseFee ?? opts.nextBlobBaseFee)
      const blobs =
        opts.nextBlobBaseFee !== undefined && nextBlob !== undefined && (!opts.blobFieldsOnlyAtHead || newest === head.number)
          ? {
              baseFeePerBlobGas: [...window.map((b) => hex(b.blobBaseFee ?? 1n)), hex(nextBlob)],
              blobGasUsedRatio: window.map((b) => b.blobGasUsedRatio ?? 0),
            }
          : {}
      return {
        oldestBlock: hex(oldest.number),
        ...blobs,
        baseFeePerGas: mode === 'bad-feehistory' ? baseFeePerGas.slice(1) : baseFeePerGas,
        gasUsedRatio: window.map((b) => b.gasUsedRatio),
        reward: window.map((b) =>
          b.tips.length || !opts.emptyRewards || opts.emptyRewards === 'zeros'
            ? pcts.map((p) => hex(b.tips.length ? percentileNearestRank(paid(b), p) : 0n))
            : opts.emptyRewards === '[]'
              ? []
              : null,
        ),
      }
    }
    throw Object.assign(new Error(`method ${method} not found`), { code: -32601 })
  }

  const server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const control = /^\/__mode\/([a-z0-9-]+)$/.exec(req.url ?? '')
    if (req.method === 'POST' && control) {
      state.mode = control[1] as FakeMode
      res.writeHead(204).end()
      return
    }
    requests++
    let body = ''
    for await (const chunk of req) body += chunk
    if (state.mode === 'hang') return
    if (state.mode === 'slow') await new Promise((r) => setTimeout(r, 1_000))
    if (state.mode === 'stall-body') {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('[')
      return
    }
    if (state.mode === 'http500') {
      res.writeHead(500, { 'content-type': 'text/plain' }).end('internal error')
      return
    }
    if (state.mode === 'http429-json' || state.mode === 'batch-error') {
      const [status, code] = state.mode === 'http429-json' ? [429, 429] : [200, -32005]
      const error = { jsonrpc: '2.0', id: null, error: { code, message: 'Your app has exceeded its compute units per second capacity' } }
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(error))
      return
    }
    if (state.mode === 'http503-json-garbage') {
      res.writeHead(503, { 'content-type': 'application/json' }).end('<html>503 Service Temporarily Unavailable</html>')
      return
    }
    if (state.mode === 'garbage') {
      res.writeHead(200, { 'content-type': 'text/html' }).end('<html>502 Bad Gateway</html>')
      return
    }
    const parsed = JSON.parse(body)
    const one = (msg: { id: number; method: string; params?: unknown[] }) => {
      state.calls.push(msg.method)
      try {
        return { jsonrpc: '2.0', id: msg.id, result: answer(msg.method, msg.params ?? []) }
      } catch (err) {
        return { jsonrpc: '2.0', id: msg.id, error: { code: (err as { code?: number }).code ?? -32000, message: (err as Error).message } }
      }
    }
    const out = Array.isArray(parsed) ? parsed.map(one) : one(parsed)
    res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(out))
  })
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r))
  state.url = `http://127.0.0.1:${(server.address() as { port: number }).port}`
  return state
}
