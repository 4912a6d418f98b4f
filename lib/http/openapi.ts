/**
 * GET /openapi.json: the OpenAPI 3.1 document of the API, generated from the zod schemas the handlers and pages use
 * (z.toJSONSchema's JSON Schema 2020-12 target is OpenAPI 3.1's dialect), never written by hand; the same on every
 * instance. One concern per module under ./openapi/ (multi-chain-paths.ts: /v1/suggestedGasFees, /v1/stream). The contract test checks every answer of the integration suite against it (tests/support/contract.ts).
 */
import { components, type Json } from './openapi/components'
import { chainPaths } from './openapi/chain-paths'
import { cataloguePaths } from './openapi/catalogue-paths'
import { multiChainPaths } from './openapi/multi-chain-paths'
import { blocknativePaths } from './openapi/blocknative-paths'
import { operationsPaths } from './openapi/operations-paths'

export type { SchemaName } from './openapi/components'

function document(): Json {
  return {
    openapi: '3.1.1',
    info: {
      title: 'Gas API',
      version: '1',
      description:
        'EIP-1559 fee suggestions for EVM chains, compatible with the Infura/MetaMask Gas API. Fees are decimal gwei strings, waits milliseconds. Every path answers HEAD as GET without a body. Generated from the zod schemas of the service (lib/core/contract/schemas.ts); docs/api.md explains every number.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    security: [{ basicAuth: [] }],
    tags: [
      { name: 'fees', description: "One chain's fees, computed from its last 500 blocks." },
      { name: 'service', description: 'What the service answers for.' },
      {
        name: 'blocknative',
        description: "Blocknative's Gas Platform dialect (its endpoints shut down on 2026-06-19): the same answers, gwei as JSON numbers.",
      },
      { name: 'operations', description: 'Probes, metrics and this document.' },
    ],
    paths: {
      ...chainPaths(),
      ...multiChainPaths(),
      ...cataloguePaths(),
      ...blocknativePaths(),
      ...operationsPaths(),
    },
    components: components(),
  }
}

let built: Json | undefined

/** The OpenAPI 3.1 document (built once per process; JSON-plain). */
export function openApiDocument(): Json {
  return (built ??= document())
}
