/**
 * The devnet's traffic model, pure: a phase machine (quiet → normal → burst) deciding how many
 * transactions each block gets, and a tip sampler. Bursts fill blocks past the EIP-1559 target so
 * the base fee climbs; quiet spells leave room so it falls.
 */

export type Phase = 'quiet' | 'normal' | 'burst'

/** Transactions per block (min, max) and how many blocks a phase lasts (min, max). */
const PHASES: Record<Phase, { txs: [number, number]; blocks: [number, number]; tipMedianGwei: number }> = {
  quiet: { txs: [8, 20], blocks: [15, 40], tipMedianGwei: 0.5 },
  normal: { txs: [20, 30], blocks: [20, 50], tipMedianGwei: 1.5 },
  burst: { txs: [40, 55], blocks: [8, 20], tipMedianGwei: 3 },
}

const NEXT: Record<Phase, Phase[]> = {
  quiet: ['normal', 'burst'],
  normal: ['quiet', 'burst', 'quiet'],
  burst: ['normal', 'quiet'],
}

/** A small seeded PRNG (mulberry32), so a devnet run can be replayed. */
export function createRandom(seed: number): () => number {
  let a = seed >>> 0
  return () => {
    a = (a + 0x6d2b79f5) >>> 0
    let t = a
    t = Math.imul(t ^ (t >>> 15), t | 1)
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61)
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296
  }
}

const between = (rand: () => number, [lo, hi]: [number, number]) => lo + Math.floor(rand() * (hi - lo + 1))

export class TrafficModel {
  private phase: Phase = 'normal'
  private left: number
  constructor(private readonly rand: () => number) {
    this.left = between(rand, PHASES.normal.blocks)
  }

  get currentPhase(): Phase {
    return this.phase
  }

  /** The transactions for the next block: their tips in wei. */
  nextBlock(): bigint[] {
    if (this.left <= 0) {
      const options = NEXT[this.phase]
      const next = options[Math.floor(this.rand() * options.length)]
      if (next === undefined) throw new Error(`no phase follows ${this.phase}`)
      this.phase = next
      this.left = between(this.rand, PHASES[this.phase].blocks)
    }
    this.left--
    const p = PHASES[this.phase]
    const count = between(this.rand, p.txs)
    return Array.from({ length: count }, () => sampleTipWei(this.rand, p.tipMedianGwei))
  }
}

/**
 * A tip in wei: log-normal around the median (σ = 0.8), with 3% zero-tip transactions (builders'
 * own) and 2% outliers at 20× the median, as seen in real blocks.
 */
function sampleTipWei(rand: () => number, medianGwei: number): bigint {
  const u = rand()
  if (u < 0.03) return 0n
  const gaussian = Math.sqrt(-2 * Math.log(1 - rand())) * Math.cos(2 * Math.PI * rand())
  let gwei = medianGwei * Math.exp(0.8 * gaussian)
  if (u > 0.98) gwei *= 20
  return BigInt(Math.round(gwei * 1e9))
}
