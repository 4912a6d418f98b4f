// GET /networks/[chainId]/gasPrices – legacy gas prices (SafeGasPrice, ProposeGasPrice, FastGasPrice) in gwei, on every chain
import { gasPricesRoute } from '@/lib/http/respond'

export const dynamic = 'force-dynamic'

export const { GET, OPTIONS, POST, PUT, PATCH, DELETE } = gasPricesRoute()
