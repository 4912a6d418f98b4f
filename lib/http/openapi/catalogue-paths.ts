/** The paths of the service's own catalogue, /v1/…: what it answers for. */
import type { Json } from './components'
import { catalogPath } from './path-items'

/** /v1/supportedNetworks and /v1/supportedChainNames (tag service). */
export function cataloguePaths(): Json {
  return {
    '/v1/supportedNetworks': catalogPath(
      'getSupportedNetworks',
      'service',
      'The chains served',
      'SupportedNetworks',
      'OP-stack chains, whose L1 data fee a client adds itself, are under partialSupport.optimism.',
    ),
    '/v1/supportedChainNames': catalogPath(
      'getSupportedChainNames',
      'service',
      'Chain id (decimal string) → name, for every chain served',
      'SupportedChainNames',
    ),
  }
}
