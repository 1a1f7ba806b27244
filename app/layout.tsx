import type { Metadata } from 'next';
import Link from 'next/link';
import './globals.css';
import './search.css';
import { SearchBox } from '../components/SearchBox';
import { WalletRoot } from './_lib/wallet-root';
import { HeaderWallet } from '../components/wallet/HeaderWallet';

export const metadata: Metadata = {
  title: { default: 'Zerox1 Observatory', template: '%s · Zerox1 Observatory' },
  description: 'Live view of the 0x01 agent mesh: envelopes, negotiations, agents.',
  icons: { icon: '/favicon.svg' },
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body>
        <WalletRoot>
        <header className="topbar">
          <Link href="/" className="brand">
            <svg className="brand-mark" viewBox="0 0 24 24" aria-hidden>
              <circle cx="12" cy="12" r="10" fill="none" stroke="#4fb3ff" strokeWidth="2" />
              <circle cx="12" cy="12" r="3.5" fill="#7ee0c3" />
            </svg>
            Zerox1 Observatory
          </Link>
          <nav>
            <Link href="/">Overview</Link>
            <Link href="/agents">Agents</Link>
            <Link href="/envelopes">Envelopes</Link>
            <Link href="/conversations">Conversations</Link>
            <Link href="/batches">Batches</Link>
            <Link href="/datasets">Datasets</Link>
            <Link href="/docs/api">API</Link>
            <Link href="/owner">My agents</Link>
          </nav>
          <SearchBox />
          <HeaderWallet />
        </header>
        <main>{children}</main>
        <footer>0x01 mesh observer · every envelope validated against the 0x01 wire protocol</footer>
        </WalletRoot>
      </body>
    </html>
  );
}
