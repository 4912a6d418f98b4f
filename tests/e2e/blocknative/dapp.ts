// The browser side of the Blocknative client test: a dapp that uses the real @web3-onboard/gas, bundled
// by dapp-server.ts. It exposes window.dapp for the spec and writes what it got into the page (for
// the screenshots). Outcomes are JSON-plain, so page.evaluate can hand them back.
import gas, { type BlockPricesResponse } from '@web3-onboard/gas'

/** What the client's observable failed with (rxjs's AjaxError: status 0 when the browser refused the answer). */
export type ClientError = { name: string; message: string; status: number | null; response: unknown }
export type Outcome<T> = { ok: true; value: T } | { ok: false; error: ClientError }

const chains = ['0x1']

function asClientError(err: unknown): ClientError {
  const e = err as { name?: string; message?: string; status?: number; response?: unknown }
  return { name: e?.name ?? 'Error', message: e?.message ?? String(err), status: e?.status ?? null, response: e?.response ?? null }
}

function show(id: string, what: unknown) {
  let el = document.getElementById(id)
  if (!el) {
    el = document.createElement('pre')
    el.id = id
    document.body.append(el)
  }
  el.textContent = `${id}: ${JSON.stringify(what, null, 1)}`
}

let subscription: ReturnType<ReturnType<typeof gas.stream>['subscribe']> | undefined
const stream = { emissions: [] as BlockPricesResponse[][], error: null as ClientError | null }

const dapp = {
  /** gas.get for Ethereum (0x1), with the key as the client sends it (raw Authorization) when given. */
  async get(apiKey?: string): Promise<Outcome<BlockPricesResponse[]>> {
    try {
      const value = (await gas.get({ chains, endpoint: 'blockPrices', ...(apiKey ? { apiKey } : {}) })) as BlockPricesResponse[]
      show('get', value)
      return { ok: true, value }
    } catch (err) {
      show('get-error', asClientError(err))
      return { ok: false, error: asClientError(err) }
    }
  },
  /** Subscribes to gas.stream; its emissions and error collect in `dapp.stream` until stopStream(). */
  startStream(poll: number, apiKey?: string): void {
    stream.emissions = []
    stream.error = null
    subscription = gas.stream({ chains, endpoint: 'blockPrices', poll, ...(apiKey ? { apiKey } : {}) }).subscribe({
      next: (v) => {
        stream.emissions.push(v as BlockPricesResponse[])
        show('stream', { emissions: stream.emissions.length, blockNumbers: stream.emissions.map((e) => e[0]?.blockPrices[0]?.blockNumber) })
      },
      error: (err) => {
        stream.error = asClientError(err)
        show('stream-error', stream.error)
      },
    })
  },
  stopStream(): void {
    subscription?.unsubscribe()
  },
  stream,
}

declare global {
  interface Window {
    dapp: typeof dapp
  }
}
window.dapp = dapp
