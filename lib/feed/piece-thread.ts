import 'server-only'
import { Worker } from 'node:worker_threads'
import { processSingleton } from '../runtime/process-singleton'
import { logger } from '../log/logger'
import type { PieceEvent } from './piece-state'
import type { PieceHeard, PieceLink, PieceTold } from './piece-bridge'

/** After the thread failed, no new one sooner than this, doubled on each failure in a row up to MAX_RESTART_MS, ms. */
const RESTART_AFTER_MS = 5_000
const MAX_RESTART_MS = 10 * 60_000

/**
 * The one thread that reads every chain's pending pieces, started on the first chain told of. A thread that fails is
 * logged and started anew on a later tell (its chains are told again: `generation`); until then their views age out.
 */
class PieceThread implements PieceLink {
  generation = 0
  private worker?: Worker
  private restartAt = Number.NEGATIVE_INFINITY
  private failures = 0
  private readonly listeners = new Map<number, (event: PieceEvent) => void>()

  tell(told: PieceTold): void {
    const worker = this.worker ?? this.start()
    worker?.postMessage(told)
  }

  listen(chainId: number, listener: (event: PieceEvent) => void): void {
    this.listeners.set(chainId, listener)
  }

  private start(): Worker | undefined {
    if (Date.now() < this.restartAt) return undefined
    const worker = new Worker(new URL('./piece-worker.ts', import.meta.url))
    // the feed's timers decide when the process may end, not this thread
    worker.unref()
    worker.on('message', (heard: PieceHeard) => {
      this.failures = 0
      this.listeners.get(heard.chainId)?.(heard.event)
    })
    const failed = (reason: string) => {
      if (this.worker !== worker) return
      this.worker = undefined
      const waitMs = Math.min(MAX_RESTART_MS, RESTART_AFTER_MS * 2 ** this.failures++)
      this.restartAt = Date.now() + waitMs
      logger().error(
        { reason, restartInSeconds: waitMs / 1000 },
        'the pending pieces thread stopped: its chains are answered from sealed blocks until it is started again',
      )
    }
    worker.on('error', (err) => failed(err.message))
    worker.on('exit', (code) => failed(`exit ${code}`))
    this.generation++
    this.worker = worker
    return worker
  }
}

/** The process's pending pieces thread. */
export const pieceThread = (): PieceLink => processSingleton('piece-thread', () => new PieceThread())
