import { readdirSync } from 'node:fs'
import { join, relative } from 'node:path'
import { Validator } from '@seriousme/openapi-schema-validator'
import { describe, expect, test } from 'vitest'
import { ErrorBodySchema, SuggestedGasFeesSchema } from '@/lib/core/contract/schemas'
import { openApiDocument } from '@/lib/http/openapi'
import { GET } from '@/app/openapi.json/route'

type Doc = {
  openapi: string
  paths: Record<string, Record<string, { security?: unknown; responses: Record<string, unknown> }>>
  components: { schemas: Record<string, unknown> }
}
const doc = openApiDocument() as Doc

/** Every route of app/ as the URL path it serves, {chainId} for the dynamic segment; the catch-all 404 left out. */
function appRoutes(dir = join(process.cwd(), 'app')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = join(dir, e.name)
    if (e.isDirectory()) return appRoutes(full)
    if (e.name !== 'route.ts') return []
    const path = `/${relative(join(process.cwd(), 'app'), dir)}`.replace('[chainId]', '{chainId}')
    return path.includes('[...') ? [] : [path]
  })
}

describe('openApiDocument', () => {
  test('default: a valid OpenAPI 3.1 document (the official 3.1 schema, @seriousme/openapi-schema-validator)', async () => {
    const validator = new Validator()
    const result = await validator.validate(structuredClone(doc) as never)
    expect(result.errors ?? []).toEqual([])
    expect(result.valid).toBe(true)
    expect(validator.version).toBe('3.1')
  })

  test('behavior: it describes every route of app/, and nothing else', () => {
    expect(Object.keys(doc.paths).sort()).toEqual(appRoutes().sort())
  })

  test('behavior: the body schemas are the zod schemas, through z.toJSONSchema', () => {
    const fees = doc.components.schemas.SuggestedGasFees as { required: string[]; additionalProperties: boolean }
    // `pending` is there only on flashblocks chains
    expect(fees.required.sort()).toEqual(
      Object.keys(SuggestedGasFeesSchema.shape)
        .filter((k) => k !== 'pending')
        .sort(),
    )
    expect(fees.additionalProperties).toBe(false)
    expect((doc.components.schemas.ErrorBody as { required: string[] }).required.sort()).toEqual(Object.keys(ErrorBodySchema.shape).sort())
  })

  test("behavior: GET transactionCost's body names its token, the L1 fee's basis, the tip floor and each level's fees per gas", () => {
    type Obj = { required: string[]; properties: Record<string, { enum?: unknown[]; anyOf?: { enum?: unknown[] }[] }> }
    const cost = doc.components.schemas.TransactionCost as Obj
    for (const field of ['nativeToken', 'l1DataFeeBasis', 'priorityFeeFloor']) expect(cost.required).toContain(field)
    expect(JSON.stringify(cost.properties.l1DataFeeBasis)).toContain('upperBound')
    const level = doc.components.schemas.TransactionCostLevel as Obj
    expect(level.required.sort()).toEqual([
      'fee',
      'maxFee',
      'maxFeePerGas',
      'maxPriorityFeePerGas',
      'maxWaitTimeEstimate',
      'minWaitTimeEstimate',
    ])
  })

  test('behavior: Basic auth everywhere but /healthz and /openapi.json (none), /readyz (optional) and /metrics (its bearer token)', () => {
    expect((doc as unknown as { security: unknown }).security).toEqual([{ basicAuth: [] }])
    expect(doc.paths['/healthz']!.get!.security).toEqual([])
    expect(doc.paths['/openapi.json']!.get!.security).toEqual([])
    expect(doc.paths['/readyz']!.get!.security).toEqual([{}, { basicAuth: [] }])
    expect(doc.paths['/metrics']!.get!.security).toEqual([{ metricsToken: [] }])
    expect(doc.paths['/networks/{chainId}/suggestedGasFees']!.get!.security).toBeUndefined()
  })

  test.each([
    ['/networks/{chainId}/suggestedGasFees', ['200', '400', '401', '429', '500', '502', '503']],
    ['/networks/{chainId}/baseFeeForecast', ['200', '400', '401', '429', '500', '502', '503']],
    ['/networks/{chainId}/accuracy', ['200', '400', '401', '429', '500', '502', '503']],
    ['/networks/{chainId}/replacementFees', ['200', '400', '401', '429', '500', '502', '503']],
    ['/networks/{chainId}/blobFees', ['200', '400', '401', '429', '500', '502', '503']],
    ['/networks/{chainId}/stream', ['200', '400', '401', '429', '500', '503']],
    ['/v1/supportedNetworks', ['200', '401', '429', '500', '503']],
    ['/metrics', ['200', '401', '404', '429', '500', '503']],
  ])('behavior: GET %s lists its statuses', (path, statuses) => {
    expect(Object.keys(doc.paths[path]!.get!.responses).sort()).toEqual(statuses)
    if (path !== '/metrics') expect(Object.keys(doc.paths[path]!.post!.responses)).toContain('405')
  })

  test('behavior: GET /openapi.json serves the document, cacheable', async () => {
    const res = GET()
    expect(res.status).toBe(200)
    expect(res.headers.get('content-type')).toMatch(/^application\/json/)
    expect(res.headers.get('cache-control')).toBe('public, max-age=300')
    expect(await res.json()).toEqual(doc)
  })
})
