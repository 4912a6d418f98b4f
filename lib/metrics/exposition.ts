import { cachedWindows } from '../cache/fee-window'
import { renderMetrics } from './registry'

/** The /metrics body: the counters, plus each cached chain's data age and block. */
export function metricsText(now = Date.now()): string {
  const windows = cachedWindows()
  return renderMetrics([
    {
      name: 'gas_api_data_age_seconds',
      help: 'Seconds since the chain window this process serves was read from the node.',
      samples: windows.map((w) => ({ labels: { chain: w.chainId }, value: Math.max(0, (now - w.fetchedAt) / 1000) })),
    },
    {
      name: 'gas_api_block_number',
      help: 'Latest block of the chain window this process serves.',
      samples: windows.map((w) => ({ labels: { chain: w.chainId }, value: w.headNumber })),
    },
  ])
}
