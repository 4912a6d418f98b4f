import type { SuggestedGasFees, TransactionCostBody } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { actionCost, COMMON_ACTIONS, formatUnitsExact, formatUnitsShort, type ActionKey, type Urgency } from './costs'
import { Gwei } from './gwei'

export type NativeCurrency = { symbol: string; decimals: number }

const LEVELS: Urgency[] = ['low', 'medium', 'high']

/**
 * What common actions cost now in the chain's native token, per level: the likely cost at the next base fee
 * and the most it can cost (the max fee).
 */
export function CostPanel({
  fees,
  currency,
  whole,
}: {
  fees: SuggestedGasFees
  currency: NativeCurrency
  whole?: Record<ActionKey, TransactionCostBody>
}) {
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {COMMON_ACTIONS.map((action) => {
        const cost = whole?.[action.key]
        // the answer names the token its amounts are in (MNT on Mantle); the page's own guess until it arrives
        const symbol = cost?.nativeToken ?? currency.symbol
        const amount = (wei: bigint) => `${formatUnitsShort(wei, currency.decimals)} ${symbol}`
        const exact = (wei: bigint) => `${formatUnitsExact(wei, currency.decimals)} ${symbol}`
        const l1 = cost?.l1DataFee ? parseGwei(cost.l1DataFee) : 0n
        const operator = cost?.operatorFee ? parseGwei(cost.operatorFee) : 0n
        return (
          <article
            key={action.key}
            data-testid={`cost-${action.key}`}
            data-gas={action.gas.toString()}
            data-tx-bytes={action.txBytes}
            data-block={cost?.blockNumber}
            data-l1={cost ? l1.toString() : undefined}
            data-operator={cost ? operator.toString() : undefined}
            data-token={symbol}
            className="rounded-xl border border-slate-300 p-4 dark:border-slate-700"
          >
            <h3 className="font-semibold">
              {action.title} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">· {action.hint}</span>
            </h3>
            <dl className="mt-2 grid grid-cols-[4.5rem_1fr] items-baseline gap-x-2 gap-y-1 text-sm">
              {LEVELS.map((level) => {
                const gasOnly = actionCost(action.gas, fees, level)
                const likelyWei = cost ? parseGwei(cost[level].fee) : gasOnly.likelyWei
                const maxWei = cost ? parseGwei(cost[level].maxFee) : gasOnly.maxWei
                return (
                  <div key={level} className="contents">
                    <dt className="capitalize">{level}</dt>
                    <dd
                      data-testid={`cost-${action.key}-${level}`}
                      data-value={likelyWei.toString()}
                      data-max={maxWei.toString()}
                      className="tabular-nums"
                    >
                      <span className="font-semibold whitespace-nowrap" title={exact(likelyWei)}>
                        {amount(likelyWei)}
                      </span>{' '}
                      <span className="whitespace-nowrap text-slate-600 dark:text-slate-400" title={exact(maxWei)}>
                        (max {amount(maxWei)})
                      </span>
                    </dd>
                  </div>
                )
              })}
            </dl>
            {cost ? <BeyondGasNote cost={cost} action={action.key} txBytes={action.txBytes} amount={amount} exact={exact} /> : null}
          </article>
        )
      })}
    </div>
  )
}

/**
 * What an action's whole cost holds beside gas × the suggested fees: the L1 data fee (or that it is unknown, or an
 * upper bound), the operator fee, or, on Linea, the tip floor its data cost sets.
 */
function BeyondGasNote({
  cost,
  action,
  txBytes,
  amount,
  exact,
}: {
  cost: TransactionCostBody
  action: ActionKey
  txBytes: number
  amount: (wei: bigint) => string
  exact: (wei: bigint) => string
}) {
  const l1 = cost.l1DataFee ? parseGwei(cost.l1DataFee) : 0n
  const operator = cost.operatorFee ? parseGwei(cost.operatorFee) : 0n
  const floor = cost.priorityFeeFloor ? parseGwei(cost.priorityFeeFloor) : 0n
  return (
    <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid={`cost-${action}-beyond-gas`}>
      {cost.l1DataFee === null ? (
        <>Leaves out the L1 data fee (not known right now)</>
      ) : floor > 0n && l1 === 0n ? (
        <>
          Its L1 data cost rides in the tip: at least <Gwei value={cost.priorityFeeFloor!} testId={`cost-${action}-tip-floor`} /> per gas
        </>
      ) : (
        <>
          Includes the L1 data fee {cost.l1DataFeeBasis === 'upperBound' ? 'of at most ' : ''}
          <span title={exact(l1)}>{amount(l1)}</span>
        </>
      )}
      {operator > 0n ? (
        <>
          {' '}
          and the operator fee <span title={exact(operator)}>{amount(operator)}</span>
        </>
      ) : null}{' '}
      for ~{txBytes} bytes.
    </p>
  )
}
