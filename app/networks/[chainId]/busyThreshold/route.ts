// GET /networks/[chainId]/busyThreshold – the 90th-percentile base fee of the last 500 blocks, in gwei
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('busyThreshold')
