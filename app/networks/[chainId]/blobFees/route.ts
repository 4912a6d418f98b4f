// GET /networks/[chainId]/blobFees – blob fees (EIP-4844): the next blob base fee and each level's
// maxFeePerBlobGas in gwei, from the same window as the other endpoints; 400 on a chain without blobs
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('blobFees')
