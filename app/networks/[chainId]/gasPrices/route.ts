// GET /networks/[chainId]/gasPrices – legacy gas prices (SafeGasPrice, ProposeGasPrice, FastGasPrice) in gwei, on every chain
import { apiRoute } from '@/lib/http/routes'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = apiRoute('gasPrices')
