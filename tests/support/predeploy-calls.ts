// A node's eth_call against predeploys held as plain values, for the fake nodes of the tests: getters
// without arguments whose values depend on the block asked, and Multicall3 (aggregate3 and
// getBlockNumber, mds1/multicall3 src/Multicall3.sol) at the chain's address.
import { decodeFunctionData, encodeFunctionResult, parseAbi, toFunctionSelector, type Hex } from 'viem'

/** A getter's value: a uint, a bool, or a tuple of uints. */
export type Value = bigint | number | boolean | bigint[]
/** Per contract address (any case), per getter name (no arguments), its value at a block. */
export type Contracts = Record<string, Record<string, Value>>

/** Multicall3's address on most chains, and zkSync Era's (mds1/multicall3 deployments.json), lower case. */
export const MULTICALL3 = '0xca11bde05977b3631167028862be2a173976ca11'
export const ZKSYNC_MULTICALL3 = '0xf9cda624fbc7e059355ce98a31693d299facd963'
const ARB_SYS = '0x0000000000000000000000000000000000000064'

const MULTICALL3_ABI = parseAbi([
  'struct Call3 { address target; bool allowFailure; bytes callData; }',
  'struct Result { bool success; bytes returnData; }',
  'function aggregate3(Call3[] calls) payable returns (Result[] returnData)',
])
export const AGGREGATE3 = toFunctionSelector('function aggregate3((address,bool,bytes)[])')
export const GET_BLOCK_NUMBER = toFunctionSelector('function getBlockNumber()')
const ARB_BLOCK_NUMBER = toFunctionSelector('function arbBlockNumber()')

const word = (v: bigint | number | boolean) =>
  BigInt(typeof v === 'boolean' ? Number(v) : v)
    .toString(16)
    .padStart(64, '0')

/** The error a node answers for a call that reverts (JSON-RPC code 3). */
export const revertError = () => Object.assign(new Error('execution reverted'), { code: 3 })

/** What one eth_call answered: its data, and for aggregate3 the inner calls' selectors. */
export type CallAnswer = { data: Hex; inner?: string[] }

/**
 * `contractsAt(block)`: the predeploys' state at each block. `multicall3`: Multicall3's address (false: no code
 * there, as on a chain without it). `arbitrum`: ArbSys.arbBlockNumber answers the L2 block, and block.number is an
 * L1 block number far from it. Returns the node's eth_call at block number `block`; throws a revert for a getter
 * the contract lacks.
 */
export function predeployCalls(opts: {
  contractsAt: (block: number) => Contracts
  multicall3?: string | false
  arbitrum?: boolean
}): (tx: { to: string; data: Hex }, block: number) => CallAnswer {
  const multicall3 = opts.multicall3 === false ? undefined : (opts.multicall3 ?? MULTICALL3).toLowerCase()
  const getterAt = (block: number, to: string, selector: string): Hex | 'revert' | 'no-code' => {
    if (to === ARB_SYS && opts.arbitrum) return selector === ARB_BLOCK_NUMBER ? `0x${word(block)}` : 'revert'
    const contract = Object.entries(opts.contractsAt(block)).find(([address]) => address.toLowerCase() === to)?.[1]
    if (!contract) return 'no-code'
    const name = Object.keys(contract).find((n) => toFunctionSelector(`function ${n}()`) === selector)
    if (name === undefined) return 'revert'
    const v = contract[name]!
    return `0x${Array.isArray(v) ? v.map(word).join('') : word(v)}`
  }
  // block.number inside a call: on Arbitrum an L1 block number
  const blockNumber = (block: number): Hex => `0x${word(opts.arbitrum ? 20_000_000 : block)}`
  return (tx, block) => {
    const to = tx.to.toLowerCase()
    const selector = tx.data.slice(0, 10)
    if (to === multicall3) {
      if (selector === GET_BLOCK_NUMBER) return { data: blockNumber(block) }
      const { args } = decodeFunctionData({ abi: MULTICALL3_ABI, data: tx.data })
      const calls = args[0]
      const results = calls.map((c) => {
        const target = c.target.toLowerCase()
        const inner = c.callData.slice(0, 10)
        if (target === multicall3 && inner === GET_BLOCK_NUMBER) return { success: true, returnData: blockNumber(block) }
        const answer = getterAt(block, target, inner)
        if (answer === 'revert') {
          if (!c.allowFailure) throw revertError()
          return { success: false, returnData: '0x' as Hex }
        }
        return { success: true, returnData: answer === 'no-code' ? ('0x' as Hex) : answer }
      })
      return {
        data: encodeFunctionResult({ abi: MULTICALL3_ABI, functionName: 'aggregate3', result: results }),
        inner: calls.map((c) => c.callData.slice(0, 10)),
      }
    }
    const answer = getterAt(block, to, selector)
    if (answer === 'revert') throw revertError()
    return { data: answer === 'no-code' ? '0x' : answer }
  }
}
