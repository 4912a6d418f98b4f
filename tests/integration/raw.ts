import { request } from 'node:http'
import { ctx } from './helpers'

/**
 * One request with exactly these bytes: node:http does not normalise the path (no '..' folding,
 * no percent-decoding) and sends header values as given (latin1), unlike fetch.
 */
export function raw(
  method: string,
  path: string,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
  const url = new URL(ctx().api)
  return new Promise((resolve, reject) => {
    const req = request({ host: url.hostname, port: url.port, method, path, headers }, (res) => {
      let text = ''
      res.setEncoding('utf8')
      res.on('data', (d) => (text += d))
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text }))
    })
    req.on('error', reject)
    req.end()
  })
}
