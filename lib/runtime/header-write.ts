/**
 * A streamed response's status line and headers in the same write as its first chunk. Next starts a streamed body
 * with `res.flushHeaders()` and then `res.write(chunk)` in the same turn; Node writes the headers at once, alone, and
 * the chunk at the next tick: two writes (and two wake-ups of the client) per stream opened. Here the socket is
 * corked over flushHeaders until the next tick, as Node does for its own writes, so both leave in one. Node.js only:
 * installed on Next's server with the peer stamp (lib/runtime/peer-stamp.ts).
 */

type SocketLike = { cork(): void; uncork(): void }
export type ResponseLike = { flushHeaders(): void; socket?: SocketLike | null }

const uncork = (socket: SocketLike) => socket.uncork()

/** The listener's body: this response's flushHeaders holds its write for the turn's first chunk. */
export function joinHeadersToFirstWrite(_req: unknown, res: ResponseLike): void {
  const flush = res.flushHeaders
  res.flushHeaders = function flushHeaders(this: ResponseLike) {
    const socket = this.socket
    if (!socket) return flush.call(this)
    socket.cork()
    try {
      flush.call(this)
    } finally {
      process.nextTick(uncork, socket)
    }
  }
}
