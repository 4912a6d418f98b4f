// A node's eth_call, in memory, for the unit tests of the L1 fee reads: predeploy getters whose values
// depend on the block asked, Multicall3 (aggregate3 and getBlockNumber) where the chain has it, and a
// log of every eth_call with its block tag. readFeeWindow's tests route eth_call to it through fetch.
import { vi } from 'vitest'
import { decodeFunctionData, encodeFunctionResult, parseAbi, toFunctionSelector, type Hex } from 'viem'

const MULTICALL3_ABI = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])
const GET_BLOCK_NUMBER = toFunctionSelector('function getBlockNumber()')
const ARB_BLOCK_NUMBER = toFunctionSelector('function arbBlockNumber()')
export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11'
const ARB_SYS = '0x0000000000000000000000000000000000000064'

/** A getter's value: a uint, a bool, or a tuple of uints. */
type Value = bigint | number | boolean | bigint[]
/** Per contract address (any case), per getter name (no arguments), its value at a block. */
export type Contracts = Record<string, Record<string, Value>>

export type PredeployNode = {
  /** Every eth_call received: its target, selector and block tag (and, for aggregate3, the inner calls' selectors). */
  log: { to: string; selector: string; tag: string; inner?: string[] }[]
  /** Answers one eth_call as the node would (throws a revert for a getter the contract lacks). */
  call(tx: { to: string; data: Hex }, tag: string): Hex
}

const word = (v: bigint | number | boolean) =>
  BigInt(typeof v === 'boolean' ? Number(v) : v)
    .toString(16)
    .padStart(64, '0')
const revert = () => Object.assign(new Error('execution reverted'), { code: 3 })

/**
 * `contractsAt(block)`: the predeploys' state at each block. `latest`: the block a call at 'latest' runs at.
 * `multicall`: Multicall3 at its canonical address (false: no code there, as on a chain without it).
 * `arbitrum`: ArbSys.arbBlockNumber answers, and block.number is an L1 block number far from the L2 one.
 */
export function predeployNode(opts: {
  latest: number
  contractsAt: (block: number) => Contracts
  multicall?: boolean
  arbitrum?: boolean
}): PredeployNode {
  const log: PredeployNode['log'] = []
  const getterAt = (block: number, to: string, selector: string): Hex | 'revert' | 'no-code' => {
    if (to === ARB_SYS && opts.arbitrum) return selector === ARB_BLOCK_NUMBER ? `0x${word(block)}` : 'revert'
    const contract = Object.entries(opts.contractsAt(block)).find(([address]) => address.toLowerCase() === to)?.[1]
    if (!contract) return 'no-code'
    const name = Object.keys(contract).find((n) => toFunctionSelector(`function ${n}()`) === selector)
    if (name === undefined) return 'revert'
    const v = contract[name]!
    return `0x${Array.isArray(v) ? v.map(word).join('') : word(v)}`
  }
  return {
    log,
    call(tx, tag) {
      const to = tx.to.toLowerCase()
      const selector = tx.data.slice(0, 10)
      const block = tag === 'latest' ? opts.latest : Number(tag)
      if (to === MULTICALL3 && opts.multicall !== false) {
        if (selector === GET_BLOCK_NUMBER) return `0x${word(block)}`
        const { args } = decodeFunctionData({ abi: MULTICALL3_ABI, data: tx.data })
        const calls = args[0]
        log.push({ to, selector, tag, inner: calls.map((c) => c.callData.slice(0, 10)) })
        const results = calls.map((c) => {
          const target = c.target.toLowerCase()
          const inner = c.callData.slice(0, 10)
          // block.number: on Arbitrum an L1 block number
          if (target === MULTICALL3 && inner === GET_BLOCK_NUMBER)
            return { success: true, returnData: `0x${word(opts.arbitrum ? 20_000_000 : block)}` as Hex }
          const answer = getterAt(block, target, inner)
          if (answer === 'revert') {
            if (!c.allowFailure) throw revert()
            return { success: false, returnData: '0x' as Hex }
          }
          return { success: true, returnData: answer === 'no-code' ? ('0x' as Hex) : answer }
        })
        return encodeFunctionResult({ abi: MULTICALL3_ABI, functionName: 'aggregate3', result: results })
      }
      log.push({ to, selector, tag })
      const answer = getterAt(block, to, selector)
      if (answer === 'revert') throw revert()
      return answer === 'no-code' ? '0x' : answer
    },
  }
}

/** A JSON-RPC request handler of eth_call for viem's `custom` transport. */
export function ethCallHandler(node: PredeployNode) {
  return async ({ method, params }: { method: string; params?: unknown }) => {
    if (method !== 'eth_call') throw new Error(`unexpected ${method}`)
    const [tx, tag] = params as [{ to: string; data: Hex }, string]
    return node.call(tx, tag)
  }
}

/**
 * Routes the eth_call entries of every JSON-RPC request to `url` to the in-memory node; the other entries go
 * to the server at `url` (the fake chain's). Counts the HTTP requests to `url`. Restore with vi.restoreAllMocks.
 */
export function routeEthCalls(url: string, node: PredeployNode): { requests: () => number } {
  const realFetch = globalThis.fetch
  let requests = 0
  vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
    if (new URL(String(input)).href !== new URL(url).href) return realFetch(input, init)
    requests++
    const body = JSON.parse(String(init?.body)) as
      { id: number; method: string; params: unknown[] } | { id: number; method: string; params: unknown[] }[]
    const items = Array.isArray(body) ? body : [body]
    const others = items.filter((i) => i.method !== 'eth_call')
    const forwarded = others.length
      ? ((await (await realFetch(input, { ...init, body: JSON.stringify(others) })).json()) as { id: number }[])
      : []
    const answers = items.map((i) => {
      if (i.method !== 'eth_call') return forwarded.find((a) => a.id === i.id)
      try {
        return { jsonrpc: '2.0', id: i.id, result: node.call(i.params[0] as { to: string; data: Hex }, i.params[1] as string) }
      } catch (e) {
        return { jsonrpc: '2.0', id: i.id, error: { code: 3, message: (e as Error).message } }
      }
    })
    return new Response(JSON.stringify(Array.isArray(body) ? answers : answers[0]), { headers: { 'content-type': 'application/json' } })
  })
  return { requests: () => requests }
}
