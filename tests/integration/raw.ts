import { request } from 'node:http'
import { assertContract } from '../support/contract'
import { ctx } from './helpers'

/**
 * One request with exactly these bytes: node:http does not normalise the path (no '..' folding,
 * no percent-decoding) and sends header values as given (latin1), unlike fetch. The answer is
 * checked against GET /openapi.json, as api() checks its answers.
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
      res.on('end', () => {
        const answer = { status: res.statusCode ?? 0, headers: res.headers, text }
        let body: unknown = text
        try {
          body = JSON.parse(text)
        } catch {
          // not JSON: the checker says whether that breaks the contract
        }
        try {
          assertContract({ method, path, status: answer.status, headers: answer.headers, body })
          resolve(answer)
        } catch (err) {
          reject(err)
        }
      })
    })
    req.on('error', reject)
    req.end()
  })
}
