// GET /networks/[chainId]/transactionCost?gas=…[&txBytes=… | &tx=0x…] – a transaction's whole cost per level,
// the L1 data fee and operator fee of L2s included
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('transactionCost')
