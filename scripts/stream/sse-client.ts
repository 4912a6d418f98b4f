/**
 * A small Server-Sent Events client on node:http, for the tests and `npm run bench:stream`: one socket
 * per stream, events parsed as the WHATWG EventSource parser does (event, id, data lines; comments
 * and retry ignored). Not used by the service.
 */
import { request as httpRequest, type IncomingHttpHeaders } from 'node:http'

export type SseEvent = {
  event: string
  id: string | undefined
  data: string
  /** performance.now() when its last byte arrived. */
  at: number
}

/** Splits a byte stream into events; call push() with each decoded chunk. */
export function sseParser(onEvent: (e: SseEvent) => void): { push(text: string): void; comments: () => number } {
  let buffer = ''
  let comments = 0
  return {
    comments: () => comments,
    push(text) {
      buffer += text
      for (;;) {
        const m = /\r\n\r\n|\n\n|\r\r/.exec(buffer)
        if (!m) break
        const block = buffer.slice(0, m.index)
        buffer = buffer.slice(m.index + m[0].length)
        let event = 'message'
        let id: string | undefined
        const data: string[] = []
        let fields = 0
        for (const line of block.split(/\r\n|\n|\r/)) {
          if (line.startsWith(':')) {
            comments++
            continue
          }
          const i = line.indexOf(':')
          const name = i < 0 ? line : line.slice(0, i)
          const value = i < 0 ? '' : line.slice(i + 1).replace(/^ /, '')
          if (name === 'event') event = value
          else if (name === 'id') id = value
          else if (name === 'data') data.push(value)
          else continue
          fields++
        }
        if (fields > 0 && data.length > 0) onEvent({ event, id, data: data.join('\n'), at: performance.now() })
      }
    },
  }
}

export type SseStream = {
  status: number
  headers: IncomingHttpHeaders
  /** Every event received so far, in order. */
  events: SseEvent[]
  /** Heartbeat and other comment blocks received so far. */
  comments(): number
  /** Waits for the first event from index `from` on that matches, up to `timeoutMs`. */
  next(match?: (e: SseEvent) => boolean, timeoutMs?: number, from?: number): Promise<SseEvent>
  /** Resolves when the server ends the stream. */
  ended: Promise<void>
  /** The whole body, for a non-200 answer. */
  body: Promise<string>
  close(): void
}

/** Opens a stream (GET with Accept: text/event-stream). Resolves once the response headers arrive. */
export function openSse(url: string, headers: Record<string, string> = {}): Promise<SseStream> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: 'GET', agent: false, headers: { accept: 'text/event-stream', ...headers } }, (res) => {
      res.setEncoding('utf8')
      const events: SseEvent[] = []
      const waiters = new Set<() => void>()
      let raw = ''
      const parser = sseParser((e) => {
        events.push(e)
        for (const w of waiters) w()
      })
      let endedResolve: () => void = () => {}
      const ended = new Promise<void>((r) => (endedResolve = r))
      res.on('data', (chunk: string) => {
        if (res.statusCode !== 200) raw += chunk
        else parser.push(chunk)
      })
      let isEnded = false
      const finish = () => {
        isEnded = true
        endedResolve()
        for (const w of waiters) w()
      }
      res.on('end', finish)
      res.on('close', finish)
      res.on('error', finish)
      resolve({
        status: res.statusCode ?? 0,
        headers: res.headers,
        events,
        comments: parser.comments,
        ended,
        body: ended.then(() => raw),
        close: () => req.destroy(),
        next(match = () => true, timeoutMs = 30_000, from = 0) {
          return new Promise((done, fail) => {
            const check = () => {
              const hit = events.slice(from).find(match)
              if (hit) {
                cleanup()
                done(hit)
              } else if (isEnded) {
                cleanup()
                fail(new Error(`the stream ended before a matching event (${events.length} events)`))
              }
            }
            const timer = setTimeout(() => {
              cleanup()
              fail(new Error(`no matching event within ${timeoutMs} ms (${events.length} events)`))
            }, timeoutMs)
            const cleanup = () => {
              clearTimeout(timer)
              waiters.delete(check)
            }
            waiters.add(check)
            check()
          })
        },
      })
    })
    req.on('error', reject)
    req.end()
  })
}
