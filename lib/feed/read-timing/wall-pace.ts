/**
 * A chain's pace on the wall clock: the median wall time per block between the last heads a process took (at
 * least 5 of them), ms.
 */
export class WallPace {
  /** When each of the last heads was first held: the last 33, so the pace over 32 blocks. */
  private arrivals: { head: number; at: number }[] = []
  private paceMs?: number

  /** The median wall time per block, ms; undefined until 5 heads were noted. Computed when a head is noted, not per read. */
  get ms(): number | undefined {
    return this.paceMs
  }

  /** Records that `head` was first held at `at` (ms since the epoch); older or repeated heads are ignored. */
  note(head: number, at: number): void {
    const last = this.arrivals.at(-1)
    if (last && head <= last.head) return
    // a head far ahead of the last (the chain paused, or this process was not asked) starts over
    if (last && head - last.head > 8) this.arrivals = []
    this.arrivals = [...this.arrivals, { head, at }].slice(-33)
    // the median of the per-block gaps: a pause in between (a devnet that stopped for a while) is one
    // gap, and does not stretch the period the way the mean over the span would
    const gaps = this.arrivals
      .slice(1)
      .map((a, i) => (a.at - this.arrivals[i]!.at) / (a.head - this.arrivals[i]!.head))
      .sort((x, y) => x - y)
    this.paceMs = this.arrivals.length < 5 ? undefined : gaps[Math.floor(gaps.length / 2)]
  }
}
