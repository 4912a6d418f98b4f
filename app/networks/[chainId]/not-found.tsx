import Link from 'next/link'

export default function UnknownChain() {
  return (
    <div
      role="alert"
      data-testid="unknown-chain"
      className="rounded-lg border border-red-300 bg-red-50 p-5 text-red-900 dark:border-red-800 dark:bg-red-950 dark:text-red-100"
    >
      <h1 className="text-xl font-semibold">Unknown or unsupported chain</h1>
      <p className="mt-2">
        This service has no fee data for that chain id. Chain ids are positive decimal numbers, such as 1 for Ethereum.
      </p>
      <p className="mt-3">
        <Link className="underline" href="/">
          See the supported chains
        </Link>
      </p>
    </div>
  )
}
