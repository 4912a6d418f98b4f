// GET /networks/[chainId]/baseFeeForecast – the base fee of each of the next 10 blocks (p50, p90, p99, bound), in gwei
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('baseFeeForecast')
