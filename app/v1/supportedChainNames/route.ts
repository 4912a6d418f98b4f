// GET /v1/supportedChainNames – {"<chainId>": "<name>"} for every chain this service answers for
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('supportedChainNames')
