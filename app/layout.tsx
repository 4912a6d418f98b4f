import type { Metadata, Viewport } from 'next'
import Link from 'next/link'
import type { ReactNode } from 'react'
import './globals.css'

export const metadata: Metadata = {
  title: 'Gas API',
  description: 'EIP-1559 gas fee estimates for EVM chains',
  // public/assets is outside the auth matcher, so the browser can load it before credentials
  icons: { icon: '/assets/icon.svg' },
}

export const viewport: Viewport = {
  colorScheme: 'light dark',
  themeColor: [
    { media: '(prefers-color-scheme: light)', color: '#ffffff' },
    { media: '(prefers-color-scheme: dark)', color: '#020617' },
  ],
}

export default function RootLayout({ children }: { children: ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen bg-white text-slate-900 antialiased dark:bg-slate-950 dark:text-slate-100">
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:absolute focus:left-2 focus:top-2 focus:rounded focus:bg-teal-700 focus:px-3 focus:py-2 focus:text-white"
        >
          Skip to content
        </a>
        <header className="border-b border-slate-200 dark:border-slate-800">
          <nav aria-label="Main" className="mx-auto flex max-w-5xl items-center gap-3 px-4 py-3">
            <Link href="/" prefetch={false} className="flex items-center gap-2 font-semibold">
              {/* eslint-disable-next-line @next/next/no-img-element */}
              <img src="/assets/icon.svg" alt="" width={24} height={24} />
              Gas API
            </Link>
            <span className="text-sm text-slate-600 dark:text-slate-400">EIP-1559 fee estimates</span>
          </nav>
        </header>
        <main id="main" className="mx-auto max-w-5xl px-4 py-6">
          {children}
        </main>
        <footer className="mx-auto max-w-5xl px-4 pb-8 text-xs text-slate-600 dark:text-slate-400">
          Fees in gwei. The same numbers are served by the API at /networks/&#123;chainId&#125;/suggestedGasFees.
        </footer>
      </body>
    </html>
  )
}
