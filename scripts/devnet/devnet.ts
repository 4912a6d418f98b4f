import { startAnvil, type AnvilNode, type AnvilOptions } from './anvil'
import { rpc, rpcBatch, type RpcCall } from './json-rpc'
import { createRandom, TrafficModel } from './traffic-model'

/**
 * How the devnet makes its live blocks:
 * - `slots` (default): a block per `blockTimeSec` slot of the wall clock, stamped with its slot, each
 *   reaching the node a delay drawn from `delayMs` after its slot (real nodes see blocks 50–500 ms
 *   late, at varying delays; default 50–300 ms);
 * - `drift`: a block every `blockTimeSec` of the wall clock whose timestamp advances only
 *   `stampStepSec` (a devnet whose clock drifts from the wall clock: anvil with a genesis in the past);
 * - `irregular`: wall-clock gaps drawn from `gapMs` (blocks made on demand), stamped with the wall
 *   clock's second (one more than the last when that second is taken);
 * - `interval`: anvil's own interval mining every `blockTimeSec`.
 */
export type DevnetClock =
  | { kind: 'slots'; delayMs?: [number, number] }
  | { kind: 'drift'; stampStepSec: number }
  | { kind: 'irregular'; gapMs: [number, number] }
  | { kind: 'interval' }

export type DevnetOptions = AnvilOptions & {
  /** Seconds between blocks once live (the mean gap for an irregular clock). */
  blockTimeSec?: number
  /** How live blocks are made (default: slots on the wall clock, reaching the node 50–300 ms late). */
  clock?: DevnetClock
  /** Blocks of history mined (with traffic) before going live, timestamped blockTimeSec apart up to now. */
  seedBlocks?: number
  /** PRNG seed for the traffic. */
  seed?: number
  /** Whether to keep sending traffic once live (default true). */
  liveTraffic?: boolean
}

export type Devnet = AnvilNode & { stop(): Promise<void> }

/**
 * Senders over anvil's unlocked dev accounts. Only a sender with nothing pending sends: anvil's
 * fee-ordered miner drops a sender's later-nonce transaction when it tips more than the one before.
 */
class Senders {
  private next = 0
  constructor(
    private readonly url: string,
    private readonly accounts: string[],
  ) {}

  /** The account at index i, counted round the list. */
  private account(i: number): string {
    const a = this.accounts[i % this.accounts.length]
    if (a === undefined) throw new Error('the devnet has no sender accounts')
    return a
  }

  /** Sends one transfer per tip; maxFeePerGas = 2 × next base fee + tip, as wallets commonly do. */
  async send(tipsWei: bigint[], nextBaseFee: bigint): Promise<void> {
    const counts = await rpcBatch(
      this.url,
      this.accounts.flatMap((a) => [
        { method: 'eth_getTransactionCount', params: [a, 'latest'] },
        { method: 'eth_getTransactionCount', params: [a, 'pending'] },
      ]),
    )
    const idle: { from: string; nonce: number }[] = []
    for (let k = 0; k < this.accounts.length; k++) {
      const i = (this.next + k) % this.accounts.length
      const latest = counts[2 * i]
      const pending = counts[2 * i + 1]
      if (!latest || !pending) throw new Error(`eth_getTransactionCount: no answer for sender ${i} in the batch`)
      if (Number(latest.result) === Number(pending.result)) idle.push({ from: this.account(i), nonce: Number(latest.result) })
    }
    // one transfer per tip, as long as idle senders last
    const calls: RpcCall[] = []
    for (const [k, { from, nonce }] of idle.entries()) {
      const tip = tipsWei[k]
      if (tip === undefined) break
      calls.push({
        method: 'eth_sendTransaction',
        params: [
          {
            from,
            to: this.account(this.next + k * 7),
            value: '0x1',
            gas: '0x5208',
            nonce: `0x${nonce.toString(16)}`,
            maxPriorityFeePerGas: `0x${tip.toString(16)}`,
            maxFeePerGas: `0x${(2n * nextBaseFee + tip).toString(16)}`,
          },
        ],
      })
    }
    this.next = (this.next + calls.length) % this.accounts.length
    // a refused send (e.g. underpriced after a base fee jump) is part of realistic traffic: ignored
    await rpcBatch(this.url, calls)
  }
}

async function nextBaseFee(url: string): Promise<bigint> {
  const h = await rpc<{ baseFeePerGas: string[] }>(url, 'eth_feeHistory', ['0x1', 'latest', []])
  const next = h.baseFeePerGas.at(-1)
  if (next === undefined) throw new Error('eth_feeHistory returned no base fee')
  return BigInt(next)
}

const sleepUntil = (t: number) => new Promise((r) => setTimeout(r, Math.max(0, t - Date.now())))

/**
 * Mines the live blocks on `clock` until `running()` is false, sending each block's traffic right
 * after the block before it. A failed call (the node frozen or gone) is skipped, never fatal.
 */
async function mineLive(
  url: string,
  clock: Exclude<DevnetClock, { kind: 'interval' }>,
  blockTimeSec: number,
  lastSeedStamp: number,
  seed: number,
  running: () => boolean,
  senders: Senders | undefined,
  model: TrafficModel,
): Promise<void> {
  const rand = createRandom(seed + 7_919)
  const stepMs = blockTimeSec * 1000
  const draw = ([lo, hi]: [number, number]) => lo + rand() * (hi - lo)
  let stamp = lastSeedStamp
  // slots: whole periods of the wall clock from the next whole second
  let slot = Math.ceil(Date.now() / 1000) * 1000
  let wall = Date.now()
  while (running()) {
    let at: number
    let next: number
    if (clock.kind === 'slots') {
      slot += stepMs
      at = slot + draw(clock.delayMs ?? [50, 300])
      next = Math.max(stamp + 1, Math.floor(slot / 1000))
    } else if (clock.kind === 'drift') {
      wall += stepMs
      at = wall
      next = stamp + clock.stampStepSec
    } else {
      wall += draw(clock.gapMs)
      at = wall
      next = Math.max(stamp + 1, Math.floor(wall / 1000))
    }
    await sleepUntil(at)
    if (!running()) break
    try {
      await rpc(url, 'evm_mine', [{ timestamp: next, blocks: 1 }])
      stamp = next
      if (senders) await senders.send(model.nextBlock(), await nextBaseFee(url))
    } catch {
      // the node is frozen, stopping or refused a send: the next block goes on
    }
  }
}

/**
 * A local EIP-1559 chain with realistic fee dynamics: anvil on loopback, `seedBlocks` blocks of
 * history mined with traffic (many senders, varied tips, bursts and quiet spells), then live blocks
 * on `clock` (default: `blockTimeSec` slots reaching the node 50–300 ms late) with the same traffic
 * continuing live.
 */
export async function startDevnet(options: DevnetOptions = {}): Promise<Devnet> {
  const blockTimeSec = options.blockTimeSec ?? 1
  const seedBlocks = options.seedBlocks ?? 520
  const clock = options.clock ?? { kind: 'slots' }
  // the seed's stamps step like the live ones (a drifting clock's seed too)
  const seedStep = clock.kind === 'drift' ? clock.stampStepSec : Math.max(1, Math.round(blockTimeSec))
  const now = Math.floor(Date.now() / 1000)
  const genesis = now - (seedBlocks + 1) * seedStep
  const node = await startAnvil({ ...options, timestamp: genesis })
  try {
    const accounts = await rpc<string[]>(node.url, 'eth_accounts')
    const senders = new Senders(node.url, accounts)
    const model = new TrafficModel(createRandom(options.seed ?? 1559))

    for (let i = 1; i <= seedBlocks; i++) {
      await senders.send(model.nextBlock(), await nextBaseFee(node.url))
      await rpc(node.url, 'evm_mine', [{ timestamp: genesis + i * seedStep, blocks: 1 }])
    }
    const lastSeedStamp = genesis + seedBlocks * seedStep
    let running = true
    const traffic = options.liveTraffic ?? true
    let miner: Promise<void> = Promise.resolve()
    if (clock.kind === 'interval') {
      // Seeding took wall-clock time; let the live blocks carry on from now, not from the seed's last stamp.
      await rpc(node.url, 'evm_setNextBlockTimestamp', [Math.max(lastSeedStamp + 1, Math.floor(Date.now() / 1000))])
      await rpc(node.url, 'evm_setIntervalMining', [blockTimeSec])
    } else {
      miner = mineLive(
        node.url,
        clock,
        blockTimeSec,
        lastSeedStamp,
        options.seed ?? 1559,
        () => running,
        traffic ? senders : undefined,
        model,
      )
    }

    let loop: Promise<void> = Promise.resolve()
    if (traffic && clock.kind === 'interval') {
      loop = (async () => {
        let due = Date.now()
        while (running) {
          try {
            await senders.send(model.nextBlock(), await nextBaseFee(node.url))
          } catch {
            if (!running) break
          }
          due += blockTimeSec * 1000
          await new Promise((r) => setTimeout(r, Math.max(0, due - Date.now())))
        }
      })()
    }
    return {
      ...node,
      async stop() {
        running = false
        await node.stop()
        await loop
        await miner
      },
    }
  } catch (err) {
    await node.stop()
    throw err
  }
}
