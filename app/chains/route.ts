// GET /chains – every served chain as Blocknative's Chains API lists it
import { blocknativeRoute } from '@/lib/blocknative/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = blocknativeRoute('chains')
