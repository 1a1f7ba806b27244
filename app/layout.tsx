import type { Metadata } from 'next';
import Link from 'next/link';
import './globals.css';
import './search.css';
import '../components/alerts/alerts.css';
import '../components/table/table.css';
import { Bell } from '../components/alerts/Bell';
import { SearchBox } from '../components/SearchBox';
import { SiteProvider } from '../components/site';
import { THEME_SCRIPT, ThemeToggle } from '../components/ThemeToggle';
import { ZoneToggle } from '../components/time/ZoneToggle';
import { HeaderWallet } from '../components/wallet/HeaderWallet';
import { pageExplorer } from './_lib/explorer';
import { agentNames } from './_lib/names';
import { getServices } from './_lib/services';
import { WalletRoot } from './wallet-root';

export const metadata: Metadata = {
  title: { default: 'Zerox1 Observatory', template: '%s · Zerox1 Observatory' },
  description: 'Live view of the 0x01 agent mesh: envelopes, negotiations, agents.',
  icons: { icon: '/favicon.svg' },
};

export default async function RootLayout({ children }: { children: React.ReactNode }) {
  const o = getServices();
  const site = {
    names: await agentNames(o),
    explorer: await pageExplorer(o),
    epochSeconds: o?.config.epochSeconds ?? null,
  };
  return (
    // The theme script sets data-theme before React hydrates: the attribute is expected to differ.
    <html lang="en" suppressHydrationWarning>
      <head>
        {/* biome-ignore lint/security/noDangerouslySetInnerHtml: our constant script runs before hydration */}
        <script dangerouslySetInnerHTML={{ __html: THEME_SCRIPT }} />
      </head>
      <body>
        <SiteProvider value={site}>
          <WalletRoot>
            <header className="topbar">
              <Link href="/" className="brand">
                <svg className="brand-mark" viewBox="0 0 24 24" aria-hidden>
                  <circle cx="12" cy="12" r="10" fill="none" stroke="var(--accent)" strokeWidth="2" />
                  <circle cx="12" cy="12" r="3.5" fill="var(--accent-2)" />
                </svg>
                Zerox1 Observatory
              </Link>
              <nav>
                <Link href="/">Overview</Link>
                <Link href="/stats">Stats</Link>
                <Link href="/mesh">Mesh</Link>
                <Link href="/agents">Agents</Link>
                <Link href="/collusion">Collusion</Link>
                <Link href="/envelopes">Envelopes</Link>
                <Link href="/conversations">Conversations</Link>
                <Link href="/batches">Batches</Link>
                <Link href="/challenges">Challenges</Link>
                <Link href="/disputes">Disputes</Link>
                <Link href="/datasets">Datasets</Link>
                <Link href="/glossary">Glossary</Link>
                <Link href="/docs/api">API</Link>
                <Link href="/owner">My agents</Link>
              </nav>
              <SearchBox />
              <Bell />
              <ZoneToggle />
              <ThemeToggle />
              <HeaderWallet />
            </header>
            <main>{children}</main>
            <footer>0x01 mesh observer · every envelope validated against the 0x01 wire protocol</footer>
          </WalletRoot>
        </SiteProvider>
      </body>
    </html>
  );
}
