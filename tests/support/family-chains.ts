import type { FakeBlock } from './fake-rpc'

const GWEI = 1_000_000_000n

/** One block of a synthetic chain: its base fee, fullness and tips (wei). */
type Spec = { baseFee: bigint; ratio: number; tips: bigint[] }

/**
 * A fake chain of `specs.length` blocks ending at `head`, `slotMs` apart (timestamps in whole seconds,
 * as nodes report them), and the next base fee. The chain's earlier blocks exist (the fake node
 * extends it backwards), so every window is a window of a chain that has its history.
 */
export function chainOf(specs: Spec[], opts: { head: number; slotMs: number; next: bigint }): { blocks: FakeBlock[]; nextBaseFee: bigint } {
  const start = 1_750_000_000_000
  return {
    blocks: specs.map((s, i) => ({
      number: opts.head - specs.length + 1 + i,
      timestamp: Math.floor((start + i * opts.slotMs) / 1000),
      baseFee: s.baseFee,
      gasUsedRatio: s.ratio,
      tips: s.tips,
    })),
    nextBaseFee: opts.next,
  }
}

/** EIP-1559's next base fee with a given denominator and elasticity (go-ethereum CalcBaseFee). */
export function nextBaseFee(parent: bigint, ratio: number, denominator = 8n, elasticity = 2): bigint {
  const limit = 30_000_000n
  const target = limit / BigInt(elasticity)
  const used = BigInt(Math.round(ratio * Number(limit)))
  if (used === target) return parent
  if (used > target) {
    const delta = (parent * (used - target)) / target / denominator
    return parent + (delta > 1n ? delta : 1n)
  }
  return parent - (parent * (target - used)) / target / denominator
}

/** Polygon PoS: 2 s blocks busy at 40–60 gwei tips, then a quiet spell: empty and zero-tip blocks. */
export function polygonQuietSpell() {
  const specs: Spec[] = Array.from({ length: 500 }, (_, i) =>
    i < 380
      ? { baseFee: 30n * GWEI, ratio: 0.5, tips: [40n * GWEI, 50n * GWEI, 60n * GWEI] }
      : i % 2 === 0
        ? { baseFee: 30n * GWEI, ratio: 0, tips: [] }
        : { baseFee: 30n * GWEI, ratio: 0.5, tips: [0n, 0n, 0n] },
  )
  return chainOf(specs, { head: 70_000_000, slotMs: 2_000, next: 30n * GWEI })
}

/**
 * An OP-stack chain in a rise: 2 s blocks, deposit-only blocks (zero tips) for the most part, then 30
 * full blocks, each raising the base fee by the chain's own bound: (elasticity − 1) / denominator.
 */
export function opStackRise(denominator: bigint, elasticity: number) {
  const specs: Spec[] = []
  let fee = GWEI / 100n
  for (let i = 0; i < 500; i++) {
    const full = i >= 470
    specs.push({ baseFee: fee, ratio: full ? 1 : 1 / elasticity, tips: full ? [GWEI / 1000n, GWEI / 500n] : [0n] })
    fee = nextBaseFee(fee, full ? 1 : 1 / elasticity, denominator, elasticity)
  }
  return chainOf(specs, { head: 130_000_000, slotMs: 2_000, next: fee })
}

/** Linea: a flat 7 wei base fee, 2 s blocks, tips of a few hundred million wei. */
export function flatLinea() {
  const specs = Array.from({ length: 500 }, () => ({ baseFee: 7n, ratio: 0.3, tips: [50_000_000n, 60_000_000n, 80_000_000n] }))
  return chainOf(specs, { head: 20_000_000, slotMs: 2_000, next: 7n })
}

/** BSC: a zero base fee, 0.45 s blocks (timestamps in whole seconds repeat), tips at 0.05–0.2 gwei. */
export function bscFastBlocks() {
  const specs = Array.from({ length: 500 }, (_, i) => ({
    baseFee: 0n,
    ratio: 0.2,
    tips: i % 5 === 0 ? [] : [GWEI / 20n, GWEI / 10n, GWEI / 5n],
  }))
  return chainOf(specs, { head: 60_000_000, slotMs: 450, next: 0n })
}

/**
 * Arbitrum One: 0.25 s blocks at the 0.02 gwei floor, whose transactions still carry tips of 0.01–1
 * gwei (wallets send them; the sequencer ignores them).
 */
export function arbitrumZeroTips() {
  const specs = Array.from({ length: 500 }, (_, i) => ({
    baseFee: GWEI / 50n,
    ratio: 0.1,
    tips: i % 3 === 0 ? [GWEI] : [GWEI / 100n, GWEI / 10n],
  }))
  return chainOf(specs, { head: 300_000_000, slotMs: 250, next: GWEI / 50n })
}

/** Ethereum: 12 s blocks, a calm 1 gwei market with a two-block burst at 300 gwei 15 blocks ago. */
export function mainnetBurst() {
  const specs = Array.from({ length: 500 }, (_, i) => ({
    baseFee: 10n * GWEI,
    ratio: 0.5,
    tips: i === 484 || i === 485 ? [300n * GWEI, 310n * GWEI] : [GWEI, 2n * GWEI],
  }))
  return chainOf(specs, { head: 23_000_000, slotMs: 12_000, next: 10n * GWEI })
}

/** A plain 12 s chain with tips and some empty blocks (for the truncated-history and reward-row shapes). */
export function plainChain(head: number) {
  // a base fee that creeps up 0.001 gwei a block: any block out of place shows in the history
  const specs = Array.from({ length: 500 }, (_, i) => ({
    baseFee: 5n * GWEI + BigInt(i) * 1_000_000n,
    ratio: i % 7 === 0 ? 0 : 0.5,
    tips: i % 7 === 0 ? [] : [GWEI / 10n, GWEI / 5n, GWEI],
  }))
  return chainOf(specs, { head, slotMs: 12_000, next: 5n * GWEI + 500n * 1_000_000n })
}

/**
 * An OP-stack chain at its Jovian floor (Base on 2026-10-03: 0.005 gwei the whole window, blocks
 * 5–20% full): 2 s blocks, every base fee the minimum the blocks' extraData carries.
 */
export function opStackAtFloor(min: bigint) {
  const specs = Array.from({ length: 500 }, (_, i) => ({ baseFee: min, ratio: 0.05 + (i % 4) * 0.05, tips: [GWEI / 1000n, GWEI / 500n] }))
  return chainOf(specs, { head: 38_000_000, slotMs: 2_000, next: min })
}

/**
 * An OP-stack chain falling onto its Jovian floor: deposit-only blocks lower the base fee by
 * 1 / denominator a block (elasticity 6) until the minimum holds it.
 */
export function opStackFallingToFloor(min: bigint, denominator: bigint) {
  const specs: Spec[] = []
  // 7.5 × the minimum falls by 0.4% a block for 500 blocks to about 1% above it: the head is still falling
  let fee = (min * 15n) / 2n
  for (let i = 0; i < 500; i++) {
    specs.push({ baseFee: fee, ratio: 0, tips: [] })
    const fallen = nextBaseFee(fee, 0, denominator, 6)
    fee = fallen < min ? min : fallen
  }
  return chainOf(specs, { head: 30_000_000, slotMs: 1_000, next: fee })
}
