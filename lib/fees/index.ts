import 'server-only'
/**
 * The service's API to its routes: fee reports through the chain's feed (lib/feed) and the fee math of lib/core.
 * One concern per module: the served window and its memos (served-window.ts), the fee endpoints' bodies
 * (reports.ts), replacementFees (replacement.ts), transactionCost (transaction-cost.ts), accuracy (accuracy.ts),
 * the confidence answers (confidence.ts), the lanes (lanes.ts), the catalogues (catalogue.ts), /metrics' and /readyz's reads (probes.ts).
 */
export { watchChain, type ReportMeta } from './served-window'
export { getFeeReport, getFeeReportsBefore, getBlobFees, getGasPrices, type Endpoint } from './reports'
export { getLaneBody } from './lanes'
export { getReplacementFees } from './replacement'
export { getTransactionCost } from './transaction-cost'
export { getAccuracyReport, heldAccuracy } from './accuracy'
export { getConfidenceReport, type ConfidenceReport } from './confidence'
export { supportedNetworks, supportedChainNames, servedChains, type ServedChain } from './catalogue'
export { cachedWindows, probeChains } from './probes'
