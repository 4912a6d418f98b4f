// GET /gasprices/blockprices – Blocknative's Gas Platform: the next block's fees at each confidence level, gwei as JSON numbers
import { blocknativeRoute } from '@/lib/blocknative/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = blocknativeRoute('blockprices')
