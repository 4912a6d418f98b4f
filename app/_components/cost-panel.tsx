import type { SuggestedGasFees } from '@/lib/core/schemas'
import { actionCost, COMMON_ACTIONS, formatUnitsExact, formatUnitsShort, type Urgency } from './costs'

export type NativeCurrency = { symbol: string; decimals: number }

const LEVELS: Urgency[] = ['low', 'medium', 'high']

/**
 * What common actions cost now in the chain's native token, per level: the likely cost at the next
 * base fee and the most it can cost (the max fee). Exact amounts, in the token's smallest unit (wei),
 * are in data-value and data-max; the title shows them in the token.
 */
export function CostPanel({ fees, currency }: { fees: SuggestedGasFees; currency: NativeCurrency }) {
  const amount = (wei: bigint) => `${formatUnitsShort(wei, currency.decimals)} ${currency.symbol}`
  const exact = (wei: bigint) => `${formatUnitsExact(wei, currency.decimals)} ${currency.symbol}`
  return (
    <div className="grid grid-cols-1 gap-4 md:grid-cols-3">
      {COMMON_ACTIONS.map((action) => (
        <article
          key={action.key}
          data-testid={`cost-${action.key}`}
          data-gas={action.gas.toString()}
          className="rounded-xl border border-slate-300 p-4 dark:border-slate-700"
        >
          <h3 className="font-semibold">
            {action.title} <span className="text-sm font-normal text-slate-600 dark:text-slate-400">· {action.hint}</span>
          </h3>
          <dl className="mt-2 grid grid-cols-[4.5rem_1fr] items-baseline gap-x-2 gap-y-1 text-sm">
            {LEVELS.map((level) => {
              const { likelyWei, maxWei } = actionCost(action.gas, fees, level)
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
        </article>
      ))}
    </div>
  )
}
