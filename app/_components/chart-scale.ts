/**
 * Axis ticks at round values between lo and hi (inclusive), about `target` of them: steps of 1, 2 or
 * 5 × a power of ten. For laying out a chart only (numbers, not amounts).
 */
export function niceTicks(lo: number, hi: number, target = 4): number[] {
  if (!(hi > lo)) return [lo]
  const rough = (hi - lo) / Math.max(1, target)
  const magnitude = 10 ** Math.floor(Math.log10(rough))
  const norm = rough / magnitude
  const step = (norm < 1.5 ? 1 : norm < 3 ? 2 : norm < 7 ? 5 : 10) * magnitude
  const ticks: number[] = []
  for (let i = Math.ceil(lo / step); i * step <= hi; i++) ticks.push(i * step)
  return ticks
}

/** Block-number ticks for a chart of blocks oldest…newest: round block numbers, whole steps. */
export function blockTicks(oldest: number, newest: number, target = 4): number[] {
  const ticks = niceTicks(oldest, newest, target).map((t) => Math.round(t))
  return [...new Set(ticks)].filter((t) => t >= oldest && t <= newest)
}

/** The index (0…count−1) of the point nearest to a horizontal position, as a fraction 0…1 of the plot's width. */
export function indexAt(fraction: number, count: number): number {
  if (count <= 1) return 0
  return Math.min(count - 1, Math.max(0, Math.round(fraction * (count - 1))))
}

/** The selected index after a key press, or undefined for a key that does not move it. */
export function indexAfterKey(key: string, index: number | undefined, count: number): number | undefined {
  const last = count - 1
  const from = index ?? last
  const moves: Record<string, number> = {
    ArrowLeft: from - 1,
    ArrowDown: from - 1,
    ArrowRight: from + 1,
    ArrowUp: from + 1,
    PageDown: from - 10,
    PageUp: from + 10,
    Home: 0,
    End: last,
  }
  const to = moves[key]
  return to === undefined ? undefined : Math.min(last, Math.max(0, to))
}
