import { describe, expect, test } from 'vitest'
import { createRandom } from '@/scripts/devnet/traffic-model'
import { ErrorBodySchema } from '@/lib/core/contract/schemas'
import { basic, ctx } from './helpers'
import { raw } from './raw'

const auth = () => ({ authorization: basic(ctx().credentials.plain) })
const live = () => ctx().chains.live

/** Every answer of ours is JSON with the error body; nothing leaks secrets, stack traces or upstream URLs. */
function expectClean(res: { status: number; headers: Record<string, unknown>; text: string }, status: number) {
  expect(res.status).toBe(status)
  for (const leak of [...ctx().rpcUrls.map((u) => new URL(u).host), ctx().credentials.plain[1], 'node_modules'])
    expect(res.text).not.toContain(leak)
  expect(res.text).not.toMatch(/\n\s+at \S+ \(/) // a stack frame
  if (status >= 400 && String(res.headers['content-type']).startsWith('application/json')) {
    expect(ErrorBodySchema.strict().parse(JSON.parse(res.text)).statusCode).toBe(status)
  }
}

describe('bad chain ids and paths', () => {
  test.each([
    ['0', '/networks/0/suggestedGasFees', 400],
    ['-1', '/networks/-1/suggestedGasFees', 400],
    ['01', '/networks/01/suggestedGasFees', 400],
    ['1.0', '/networks/1.0/suggestedGasFees', 400],
    ['0x1', '/networks/0x1/suggestedGasFees', 400],
    ['1e3', '/networks/1e3/suggestedGasFees', 400],
    ['2^53+1', '/networks/9007199254740993/suggestedGasFees', 400],
    ['a 10,000-digit number', `/networks/${'9'.repeat(10_000)}/suggestedGasFees`, 400],
    ['unicode digits (Arabic-Indic 1)', `/networks/${encodeURIComponent('١')}/suggestedGasFees`, 400],
    ['fullwidth digits', `/networks/${encodeURIComponent('３１３３７')}/suggestedGasFees`, 400],
    ['a percent-encoded slash', '/networks/31337%2F1/suggestedGasFees', 400],
    ['a malformed percent-escape', '/networks/%ZZ/suggestedGasFees', 400],
    ['an escape that is not UTF-8', '/networks/%FF%FE/suggestedGasFees', 400],
    ['an unsupported chain', '/networks/6001/busyThreshold', 400],
    ['extra path segments', '/networks/31337/suggestedGasFees/extra', 404],
    ['an unknown endpoint', '/networks/31337/gasOracle', 404],
    ['empty chain id (Next collapses the double slash with a 308)', '/networks//suggestedGasFees', 308],
    ['dot-dot', '/networks/../suggestedGasFees', 404],
  ])('error: %s', async (_, path, status) => {
    expectClean(await raw('GET', path, auth()), status)
  })

  test.each([
    ['a query string', `/networks/31337/baseFeePercentile?chainId=1&x=%00`],
    ['an empty query', `/networks/31337/baseFeePercentile?`],
  ])('args: %s is ignored', async (_, path) => {
    const res = await raw('GET', path, auth())
    expectClean(res, 200)
    expect(JSON.parse(res.text)).toHaveProperty('baseFeePercentile')
  })

  test('behavior: property — over 150 random chain ids, only canonical supported ids answer 200, nothing is a 5xx', async () => {
    const rand = createRandom(99)
    const alphabet = ['0', '1', '3', '7', '9', '-', '+', '.', 'e', 'x', '%20', '%2F', '%D9%A3', '%EF%BC%93', '%C3%A9', '%00', '%ZZ']
    const supported = new Set(['31337', '31338', '31339'])
    for (let i = 0; i < 150; i++) {
      const len = 1 + Math.floor(rand() * 8)
      const id = Array.from({ length: len }, () => alphabet[Math.floor(rand() * alphabet.length)]).join('')
      const res = await raw('GET', `/networks/${id}/busyThreshold`, auth())
      expect(res.status, id).toBeLessThan(500)
      if (res.status === 200) expect(supported.has(id), id).toBe(true)
      else expect([400, 404], id).toContain(res.status)
    }
  })
})

describe('methods', () => {
  test.each(['POST', 'PUT', 'DELETE', 'PATCH'])('error: %s → 405 with Allow', async (method) => {
    const res = await raw(method, `/networks/${live()}/suggestedGasFees`, auth())
    expectClean(res, 405)
    expect(res.headers.allow).toBe('GET, HEAD, OPTIONS')
  })
  test('behavior: HEAD has the headers of GET and no body; OPTIONS answers 204 with Allow', async () => {
    const head = await raw('HEAD', `/networks/${live()}/suggestedGasFees`, auth())
    expect(head.status).toBe(200)
    expect(head.text).toBe('')
    expect(head.headers['x-block-number']).toMatch(/^\d+$/)
    const options = await raw('OPTIONS', `/networks/${live()}/suggestedGasFees`, auth())
    expect(options.status).toBe(204)
    expect(options.headers.allow).toBe('GET, HEAD, OPTIONS')
  })
})

describe('authorization variants', () => {
  const [key, secret] = ['itest', 'plain-secret-of-itest']
  const b64 = (s: string) => Buffer.from(s, 'utf8').toString('base64')
  test.each([
    ['missing', undefined, 401],
    ['another scheme', `Bearer ${b64(`${key}:${secret}`)}`, 401],
    ['lowercase basic', `basic ${b64(`${key}:${secret}`)}`, 200],
    ['extra spaces', `Basic     ${b64(`${key}:${secret}`)}`, 200],
    ['invalid base64', 'Basic ***', 401],
    ['no colon', `Basic ${b64(key)}`, 401],
    ['an empty key', `Basic ${b64(`:${secret}`)}`, 401],
    ['an 8 KB header', `Basic ${'QUFB'.repeat(2048)}`, 401],
    ['non-UTF-8 bytes', `Basic ${Buffer.from([0x69, 0x3a, 0xff, 0xfe, 0xfd]).toString('base64')}`, 401],
    ['raw latin1 bytes in the header', `Basic \xff\xfe`, 401],
    ['a correct key with a wrong secret', `Basic ${b64(`${key}:${secret}x`)}`, 401],
    ['a revoked key', `Basic ${b64(`revoked:${secret}`)}`, 401],
  ])('args: %s → %s', async (_, header, status) => {
    const res = await raw('GET', `/networks/${live()}/baseFeePercentile`, header === undefined ? {} : { authorization: header })
    expectClean(res, status)
    if (status === 401) expect(res.headers['www-authenticate']).toBe('Basic realm="gas-api", charset="UTF-8"')
  })
})
