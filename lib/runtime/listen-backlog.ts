/**
 * The listen backlog of the process's HTTP servers. `next start` listens with Node's default of 511 pending
 * connections; a burst of opens past it (5,000 stream subscribers within 1.3 s) has the kernel drop the SYNs beyond
 * it, and each dropped client's connect is retried 1, 3, 7, 15 s later: opens wait seconds in the client's kernel
 * while the service idles. A longer queue keeps them in order at the server instead. Node.js only.
 */

/** Pending connections asked for; the kernel caps it at net.core.somaxconn (4,096 on Linux since 5.4). */
export const LISTEN_BACKLOG = 65_535

type ServerLike = {
  listening?: boolean
  listeners?: (event: string) => unknown[]
  _handle?: { listen?: (backlog: number) => number } | null
}

/**
 * Listens again with `backlog` on every HTTP server this process is listening with (Next's own, found among the
 * process's active handles): on Linux a second listen() on a listening socket only sets its backlog.
 * @returns how many servers took it
 */
export function widenListenBacklog(backlog = LISTEN_BACKLOG): number {
  const handles = (process as unknown as { _getActiveHandles?: () => unknown[] })._getActiveHandles?.() ?? []
  let widened = 0
  for (const h of handles) {
    const server = h as ServerLike
    if (!server?.listening || typeof server.listeners !== 'function' || server.listeners('request').length === 0) continue
    const listen = server._handle?.listen
    if (typeof listen === 'function' && listen.call(server._handle, backlog) === 0) widened++
  }
  return widened
}
