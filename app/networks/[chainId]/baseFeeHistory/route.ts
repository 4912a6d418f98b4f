// GET /networks/[chainId]/baseFeeHistory – the base fees of the last 500 blocks, oldest first, in gwei
import { feeRoute } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = feeRoute('baseFeeHistory')
