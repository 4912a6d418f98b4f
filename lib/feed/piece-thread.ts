import 'server-only'
import { Worker } from 'node:worker_threads'
import { processSingleton } from '../runtime/process-singleton'
import { logger } from '../log/logger'
import type { PieceEvent } from './piece-state'
import type { PieceHeard, PieceLink, PieceTold } from './piece-bridge'

/** After the thread failed, no new one sooner than this, doubled on each failure in a row up to MAX_RESTART_MS, ms. */
const RESTART_AFTER_MS = 5_000
const MAX_RESTART_MS = 10 * 60_000
/** A thread that ran this long before it failed starts the doubling over, ms. */
const HEALTHY_RUN_MS = 60_000

/** What the thread is to its owner (a worker_threads Worker; a fake in tests). */
export type PieceWorker = Pick<Worker, 'postMessage' | 'unref' | 'terminate'> & {
  on(kind: 'message', listener: (heard: PieceHeard) => void): unknown
  on(kind: 'error', listener: (err: Error) => void): unknown
  on(kind: 'exit', listener: (code: number) => void): unknown
}

/**
 * The one thread that reads every chain's pending pieces, started on the first chain told of. A thread that fails (or
 * cannot start) is logged and started anew on a later tell, after a back-off; its feeds are told again (`generation`),
 * and until then their views age out.
 */
export class PieceThread implements PieceLink {
  generation = 0
  private worker?: PieceWorker
  private startedAt = 0
  private restartAt = Number.NEGATIVE_INFINITY
  private failures = 0
  private lastId = 0
  private readonly listeners = new Map<number, (event: PieceEvent) => void>()

  constructor(
    private readonly spawn: () => PieceWorker,
    private readonly now: () => number = Date.now,
  ) {}

  tell(told: PieceTold): boolean {
    // no thread is started to hear that a feed stopped
    const worker = this.worker ?? (told.stopped ? undefined : this.start())
    if (!worker) return false
    try {
      worker.postMessage(told)
      return true
    } catch (err) {
      this.failed(worker, (err as Error).message)
      return false
    }
  }

  open(listener: (event: PieceEvent) => void): number {
    this.listeners.set(++this.lastId, listener)
    return this.lastId
  }

  close(feedId: number): void {
    this.listeners.delete(feedId)
  }

  private start(): PieceWorker | undefined {
    if (this.now() < this.restartAt) return undefined
    let worker: PieceWorker
    try {
      worker = this.spawn()
    } catch (err) {
      this.failed(undefined, (err as Error).message)
      return undefined
    }
    // the feed's timers decide when the process may end, not this thread
    worker.unref()
    worker.on('message', (heard) => this.listeners.get(heard.feedId)?.(heard.event))
    worker.on('error', (err) => this.failed(worker, err.message))
    worker.on('exit', (code) => this.failed(worker, `exit ${code}`))
    this.generation++
    this.worker = worker
    this.startedAt = this.now()
    return worker
  }

  private failed(worker: PieceWorker | undefined, reason: string): void {
    if (worker !== this.worker) return
    if (worker) void worker.terminate().catch(() => {})
    this.worker = undefined
    if (worker && this.now() - this.startedAt >= HEALTHY_RUN_MS) this.failures = 0
    const waitMs = Math.min(MAX_RESTART_MS, RESTART_AFTER_MS * 2 ** this.failures++)
    this.restartAt = this.now() + waitMs
    logger().error(
      { reason, restartInSeconds: waitMs / 1000 },
      'the pending pieces thread stopped: its chains are answered from sealed blocks until it is started again',
    )
  }
}

/** The process's pending pieces thread. */
export const pieceThread = (): PieceLink =>
  processSingleton('piece-thread', () => new PieceThread(() => new Worker(new URL('./piece-worker.ts', import.meta.url))))
