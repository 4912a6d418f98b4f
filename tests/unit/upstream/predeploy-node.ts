// A node's eth_call, in memory, for the unit tests of the L1 fee reads: predeploy getters whose values
// depend on the block asked, Multicall3 (aggregate3 and getBlockNumber) where the chain has it, and a
// log of every eth_call with its block tag. A block after `latest` is not mined: the node errors, as geth does.
import type { Hex } from 'viem'
import { predeployCalls, type Contracts } from '../../support/predeploy-calls'

export { MULTICALL3, type Contracts } from '../../support/predeploy-calls'

export type PredeployNode = {
  /** Every eth_call received: its target, selector and block tag (and, for aggregate3, the inner calls' selectors). */
  log: { to: string; selector: string; tag: string; inner?: string[] }[]
  /** Answers one eth_call as the node would (throws a revert for a getter the contract lacks, an error for a block not mined). */
  call(tx: { to: string; data: Hex }, tag: string): Hex
}

/**
 * `contractsAt(block)`: the predeploys' state at each block. `latest`: the node's head (a call at 'latest' runs
 * there; one pinned after it fails). `multicall`: Multicall3 at its canonical address (false: no code there).
 * `arbitrum`: ArbSys.arbBlockNumber answers, and block.number is an L1 block number far from the L2 one.
 */
export function predeployNode(opts: {
  latest: number
  contractsAt: (block: number) => Contracts
  multicall?: boolean
  arbitrum?: boolean
}): PredeployNode {
  const log: PredeployNode['log'] = []
  const call = predeployCalls({
    contractsAt: opts.contractsAt,
    multicall3: opts.multicall === false ? false : undefined,
    arbitrum: opts.arbitrum,
  })
  return {
    log,
    call(tx, tag) {
      const answer = (() => {
        const block = tag === 'latest' ? opts.latest : Number(tag)
        if (block > opts.latest) return { error: Object.assign(new Error('header not found'), { code: -32000 }) }
        try {
          return call(tx, block)
        } catch (error) {
          return { error: error as Error }
        }
      })()
      log.push({
        to: tx.to.toLowerCase(),
        selector: tx.data.slice(0, 10),
        tag,
        ...('inner' in answer && answer.inner ? { inner: answer.inner } : {}),
      })
      if ('error' in answer) throw answer.error
      return answer.data
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
