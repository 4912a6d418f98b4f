/**
 * New connections' first requests paced behind accepting connections, so a burst of connects waits in the service's
 * queue, not the kernel's: Node accepts one connection per loop turn, and a turn also runs every arrived request's
 * listener, so a burst of stream opens (milliseconds each) fills the listen queue, and the kernel drops the SYNs
 * past it (clients retry 1, 3, 7 s later). docs/benchmarks.md has the measurements. Node.js only.
 */

/** Listener time one turn may spend on first requests before later ones wait, ms. */
export const TURN_BUDGET_MS = 10
/** How long turns that accept connections may hold back the next waiting request, ms. */
export const MAX_HOLD_MS = 2
/** Waiting requests started by a turn that accepted no connection. */
export const STARTS_PER_TURN = 16
/** Waiting requests past which new ones start at once, as without a pacer (memory stays bounded). */
export const MAX_WAITING = 20_000

export type Pacer = {
  /** Runs `start` now, or after the requests already waiting; one whose client `gone()` by its turn never starts. */
  pace(start: () => void, gone?: () => boolean): void
  /** Tells the pacer a connection was accepted (a server's `connection` event). */
  accepted(): void
  /** Requests waiting to start. */
  waiting(): number
}

type Waiting = { start: () => void; gone: (() => boolean) | undefined }

const isGone = (w: Waiting) => {
  try {
    return w.gone?.() === true
  } catch {
    return true
  }
}

/** A pacer of request starts (one per server process: installPeerStamp makes it). */
export function createPacer(budgetMs = TURN_BUDGET_MS, now = () => performance.now()): Pacer {
  const queue: Waiting[] = []
  // when this turn's first request started (-1: none yet), reset by the turn's check phase
  let turnStart = -1
  let scheduled = false
  let acceptedThisTurn = false
  // when accepting began to hold the next waiting request (-1: it does not)
  let holdStart = -1
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    // an immediate set in the check phase runs in the next turn, after that turn's accept
    setImmediate(turn)
  }
  // runs in a turn's check phase: clears the turn's marks, then holds or starts waiting requests
  const turn = () => {
    scheduled = false
    turnStart = -1
    const starts: Waiting[] = []
    if (acceptedThisTurn && (holdStart < 0 || now() - holdStart < MAX_HOLD_MS)) {
      if (holdStart < 0) holdStart = now()
    } else {
      holdStart = -1
      // a turn that accepted nothing found the listen queue empty: a batch, so established traffic starves none
      for (let n = acceptedThisTurn ? 1 : STARTS_PER_TURN; n > 0 && queue.length > 0;) {
        const next = queue.shift()!
        if (isGone(next)) continue
        starts.push(next)
        n--
      }
    }
    acceptedThisTurn = false
    // the next turn is set before these start, so a start that throws leaves no request stranded
    if (queue.length > 0) schedule()
    else holdStart = -1
    for (const w of starts)
      try {
        w.start()
      } catch (err) {
        process.nextTick(() => {
          throw err
        })
      }
  }
  return {
    pace(start, gone) {
      const t = now()
      if (queue.length === 0 || queue.length >= MAX_WAITING) {
        if (turnStart < 0) {
          turnStart = t
          schedule()
        }
        if (t - turnStart < budgetMs || queue.length >= MAX_WAITING) return start()
      }
      queue.push({ start, gone })
      schedule()
    },
    accepted() {
      acceptedThisTurn = true
      schedule()
    },
    waiting: () => queue.length,
  }
}
