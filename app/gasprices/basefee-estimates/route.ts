// GET /gasprices/basefee-estimates – Blocknative's base fee (and blob base fee) estimates for the next five blocks
import { blocknativeRoute } from '@/lib/blocknative/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = blocknativeRoute('basefee-estimates')
