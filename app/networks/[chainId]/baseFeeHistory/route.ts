// GET /networks/[chainId]/baseFeeHistory – the base fees of the last 500 blocks, oldest first, in gwei
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('baseFeeHistory')
