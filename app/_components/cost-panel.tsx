import type { SuggestedGasFees, TransactionCostBody } from '@/lib/core/contract/schemas'
import { parseGwei } from '@/lib/core/units'
import { actionCost, COMMON_ACTIONS, formatUnitsExact, formatUnitsShort, type ActionKey, type Urgency } from './costs'

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
  const amount = (wei: bigint) => `${formatUnitsShort(wei, currency.decimals)} ${currency.symbol}`
  const exact = (wei: bigint) => `${formatUnitsExact(wei, currency.decimals)} ${currency.symbol}`
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {COMMON_ACTIONS.map((action) => {
        const cost = whole?.[action.key]
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
            {cost ? (
              <p className="mt-2 text-xs text-slate-600 dark:text-slate-400" data-testid={`cost-${action.key}-beyond-gas`}>
                {cost.l1DataFee === null ? (
                  <>Leaves out the L1 data fee (not known right now)</>
                ) : (
                  <>
                    Includes the L1 data fee <span title={exact(l1)}>{amount(l1)}</span>
                  </>
                )}
                {operator > 0n ? (
                  <>
                    {' '}
                    and the operator fee <span title={exact(operator)}>{amount(operator)}</span>
                  </>
                ) : null}{' '}
                for ~{action.txBytes} bytes.
              </p>
            ) : null}
          </article>
        )
      })}
    </div>
  )
}
