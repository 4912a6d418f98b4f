// GET /v1/supportedNetworks and /v1/supportedChainNames on the suite's service (chains configured by RPC_URL_<id> only).
import { describe, expect, test } from 'vitest'
import { SupportedChainNamesSchema, SupportedNetworksSchema } from '@/lib/core/contract/schemas'
import { api, ctx } from './helpers'

const configured = () =>
  Object.values(ctx().chains)
    .filter((id) => id !== ctx().chains.unlisted)
    .sort((a, b) => a - b)

describe('GET /v1/supportedNetworks', () => {
  test('default: every configured chain, none of them OP-stack here', async () => {
    const res = await api('/v1/supportedNetworks')
    expect(res.status).toBe(200)
    const body = SupportedNetworksSchema.strict().parse(res.body)
    expect(body).toEqual({ fullSupport: configured(), partialSupport: { optimism: [] } })
    // the same rate-limit headers as a fee endpoint for the same key
    const fees = await api(`/networks/${ctx().chains.live}/busyThreshold`)
    expect(res.headers.get('ratelimit-policy')).toBe(fees.headers.get('ratelimit-policy'))
  })
})

describe('GET /v1/supportedChainNames', () => {
  test("default: each configured chain's name by decimal id", async () => {
    const res = await api('/v1/supportedChainNames')
    expect(res.status).toBe(200)
    const body = SupportedChainNamesSchema.parse(res.body)
    expect(
      Object.keys(body)
        .map(Number)
        .sort((a, b) => a - b),
    ).toEqual(configured())
    expect(body[String(ctx().chains.live)]).toBe('Anvil')
  })
})

describe('the /v1 catalogue follows the API rules', () => {
  test.each(['/v1/supportedNetworks', '/v1/supportedChainNames'])('errors: %s needs credentials and is read-only', async (path) => {
    const anonymous = await api(path, { auth: null })
    expect(anonymous.status).toBe(401)
    expect(anonymous.body.statusCode).toBe(401)
    expect((await api(path, { method: 'POST' })).status).toBe(405)
  })
})
