import Link from 'next/link'

export default function NotFound() {
  return (
    <div data-testid="not-found">
      <h1 className="text-xl font-semibold">Page not found</h1>
      <p className="mt-2">There is nothing at this address.</p>
      <p className="mt-3">
        <Link className="underline" href="/">
          Back to the overview
        </Link>
      </p>
    </div>
  )
}
