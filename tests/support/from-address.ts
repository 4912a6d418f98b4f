import { request, type IncomingHttpHeaders } from 'node:http'

/** An answer read whole: status, headers, the body as text. */
export type Answer = { status: number; headers: IncomingHttpHeaders; text: string; raw: string }

/**
 * GET (or `method`) `url` over a connection from the local address `from` (on Linux every 127.0.0.0/8 address is this
 * machine's, so 127.0.0.x is a client of its own to the server), with any headers the client likes.
 */
export function fromAddress(
  from: string,
  url: string,
  headers: Record<string, string> = {},
  method = 'GET',
  /** the request target exactly as sent (`//v3/…`, `/\\v3/…`, an absolute form), where a URL would normalise it */
  rawTarget?: string,
): Promise<Answer> {
  return new Promise((resolve, reject) => {
    const options = { method, headers, localAddress: from, agent: false, ...(rawTarget === undefined ? {} : { path: rawTarget }) }
    const req = request(url, options, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => {
        const raw = `${res.statusCode} ${res.statusMessage}\n${res.rawHeaders.join('\n')}\n\n${text}`
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text, raw })
      })
    })
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} within 30 s`)))
    req.on('error', reject)
    req.end()
  })
}

/** A stream opened from `from`: its status and headers once they arrive; close() ends it. A refusal's body is read. */
export function openFromAddress(
  from: string,
  url: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: IncomingHttpHeaders; text: string; close(): void }> {
  return new Promise((resolve, reject) => {
    const req = request(url, { headers, localAddress: from, agent: false }, (res) => {
      const close = () => req.destroy()
      if (res.statusCode === 200) return resolve({ status: 200, headers: res.headers, text: '', close })
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text, close }))
    })
    req.setTimeout(30_000, () => req.destroy(new Error(`no answer from ${url} within 30 s`)))
    req.on('error', reject)
    req.end()
  })
}
