// GET /v1/supportedChainNames – {"<chainId>": "<name>"} for every chain this service answers for
import { supportedChainNamesRoute } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = supportedChainNamesRoute()
