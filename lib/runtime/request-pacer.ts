/**
 * Request starts paced behind the accepting of connections, so a burst of connects waits in the service's queue and
 * not in the kernel's. Node accepts one connection per turn of its event loop, and a turn also runs the listener of
 * every request that arrived, an open costing milliseconds: in a burst the listen queue fills, the kernel drops the
 * SYNs past it and those clients connect again 1, 3, 7 s later, behind everyone. Here a request starts at once while
 * none wait and its turn has time left; otherwise it waits in arrival order, and waiting requests start one a turn,
 * only in a turn that accepted no connection (or after MAX_ACCEPT_TURNS that did). Node.js only.
 */

/** Listener time one turn may spend on requests before later ones wait, ms. */
export const TURN_BUDGET_MS = 10
/** Turns in a row that only accept connections before a waiting request starts anyway. */
export const MAX_ACCEPT_TURNS = 16

export type Pacer = {
  /** Runs `start` now, or after the requests already waiting; one whose client `gone()` by its turn never starts. */
  pace(start: () => void, gone?: () => boolean): void
  /** Tells the pacer a connection was accepted (a server's `connection` event). */
  accepted(): void
  /** Requests waiting to start. */
  waiting(): number
}

/** A pacer of request starts (one per server process: installPeerStamp makes it). */
export function createPacer(budgetMs = TURN_BUDGET_MS, now = () => performance.now()): Pacer {
  const queue: { start: () => void; gone?: () => boolean }[] = []
  // when this turn's first request started (-1: none yet), reset in the turn's check phase
  let turnStart = -1
  let scheduled = false
  let acceptedThisTurn = false
  let acceptTurns = 0
  const schedule = () => {
    if (scheduled) return
    scheduled = true
    // an immediate set in the check phase runs in the next turn, after that turn's accept
    setImmediate(turn)
  }
  const turn = () => {
    scheduled = false
    let next: (typeof queue)[number] | undefined
    if (acceptedThisTurn && acceptTurns < MAX_ACCEPT_TURNS) acceptTurns++
    else {
      acceptTurns = 0
      next = queue.shift()
      while (next?.gone?.()) next = queue.shift()
    }
    acceptedThisTurn = false
    // the next turn is set before this start runs, so a start that throws leaves no request stranded
    if (queue.length > 0) schedule()
    next?.start()
  }
  return {
    pace(start, gone) {
      const t = now()
      if (queue.length === 0) {
        if (turnStart < 0) {
          turnStart = t
          setImmediate(() => (turnStart = -1))
        }
        if (t - turnStart < budgetMs) return start()
      }
      queue.push({ start, gone })
      schedule()
    },
    accepted() {
      acceptedThisTurn = true
    },
    waiting: () => queue.length,
  }
}
