'use client';
/**
 * The wallet side of a watchlist, with the wallet the header connects (the project's Wallet
 * Standard island: components/wallet/WalletIsland.tsx): "Follow my wallet" signs a message tying
 * this browser's list to the wallet, so the agents whose identity NFT it holds then are watched
 * (signing again adds the ones it got since); in
 * another browser, signing with the same wallet takes that list over. Only signMessage is used:
 * no transaction, nothing spent. Renders nothing when the process runs no chain.
 */
import { useState } from 'react';
import { Term } from '../Term';
import {
  ConnectWalletButton,
  isRejection,
  shortAddress,
  useHasWallet,
  useMessageSigner,
  useMounted,
} from '../wallet/message-signer';
import { alertsApi } from './api';
import { announceAlertsChanged } from './Bell';
import { getLocal, setLocal } from './store';
import { ensureWatchlist } from './useWatchlist';
import { adoptMessage, encodeSignature, linkMessage } from './wallet-message';

const api = alertsApi();

type Note = { ok: boolean; text: string };

/** A wallet's refusal as a sentence (the person pressed Reject, or the wallet cannot sign text). */
function walletError(e: unknown): string {
  if (isRejection(e)) return 'The wallet did not sign (rejected in the wallet). Nothing was changed.';
  return `The wallet could not sign: ${(e as Error)?.message ?? String(e)}`;
}

/**
 * The connected wallet and one signed request at a time: `run(send)` gives `send` the address and
 * a signer (a message → its encoded signature, or the sentence saying why the wallet did not
 * sign), and shows the sentence `send` returns.
 */
function useSignedRequest() {
  const mounted = useMounted();
  const { address, signText } = useMessageSigner();
  const [busy, setBusy] = useState(false);
  const [msg, setMsg] = useState<Note | null>(null);
  const run = async (send: (address: string, sign: (message: string) => Promise<string | Note>) => Promise<Note>) => {
    if (!address || !signText) return;
    setBusy(true);
    setMsg(null);
    try {
      setMsg(
        await send(address, async (message) => {
          try {
            return encodeSignature(await signText(message));
          } catch (e) {
            return { ok: false, text: walletError(e) };
          }
        }),
      );
    } finally {
      setBusy(false);
    }
  };
  return { mounted, address, canSign: Boolean(signText), busy, msg, run };
}

const Status = ({ msg }: { msg: Note | null }) =>
  msg ? (
    <p className={msg.ok ? 'form-ok' : 'form-error'} role={msg.ok ? 'status' : 'alert'}>
      {msg.text}
    </p>
  ) : null;

export function FollowWallet({ linked, onLinked }: { linked: string | null; onLinked?: () => void }) {
  if (!useHasWallet()) return null;
  return <Follow linked={linked} onLinked={onLinked} />;
}

function Follow({ linked, onLinked }: { linked: string | null; onLinked?: () => void }) {
  const { mounted, address, canSign, busy, msg, run } = useSignedRequest();

  const follow = () =>
    run(async (address, sign) => {
      const w = await ensureWatchlist();
      if (!w.ok) return { ok: false, text: w.error };
      const message = linkMessage(w.value.id, address, new Date());
      const signature = await sign(message);
      if (typeof signature !== 'string') return signature;
      const r = await api.linkWallet(w.value, { address, message, signature });
      if (!r.ok) return { ok: false, text: r.error };
      const { agentsOwned, agentsAdded } = r.value;
      const owned =
        agentsOwned === null
          ? 'the agents it owns are watched'
          : agentsOwned === 0
            ? 'it holds no agent identity now (sign again once it does)'
            : `it owns ${agentsOwned} agent${agentsOwned === 1 ? '' : 's'}` +
              (agentsAdded !== null && agentsAdded < agentsOwned ? `, ${agentsAdded} newly watched` : ', all watched');
      onLinked?.();
      announceAlertsChanged();
      return { ok: true, text: `This list now follows ${shortAddress(address)}: ${owned}.` };
    });

  if (!mounted) return null;
  return (
    <div className="wallet-follow" data-testid="wallet-follow">
      {linked ? (
        <p>
          Follows the wallet{' '}
          <span className="mono" title={linked}>
            {shortAddress(linked)}
          </span>
          : the agents whose <Term k="sati">identity NFT</Term> it held when it signed are watched. Sign again to add
          agents it got since.
        </p>
      ) : (
        <p>
          Follow your wallet to watch every agent whose <Term k="sati">identity NFT</Term> it holds, and to open this
          list in another browser by signing with the same wallet.
        </p>
      )}
      {!address ? (
        <>
          <p className="muted small">{linked ? 'Connect that wallet to sign again.' : 'Connect a wallet first.'}</p>
          <ConnectWalletButton />
        </>
      ) : !canSign ? (
        <p className="form-error">This wallet cannot sign messages, which following needs; try another wallet.</p>
      ) : (
        <button
          type="button"
          className={`btn ${linked === address ? '' : 'primary'}`}
          onClick={follow}
          disabled={busy}
          data-testid="follow-wallet"
        >
          {busy
            ? 'Waiting for the wallet…'
            : linked === address
              ? 'Sign again to add new agents'
              : `Follow my wallet (${shortAddress(address)})`}
        </button>
      )}
      {address && canSign ? (
        <p className="muted small">
          Your wallet asks you to sign a line of text naming this list and your address. It is not a transaction:
          nothing is spent.
        </p>
      ) : null}
      <Status msg={msg} />
    </div>
  );
}

/** In a browser without the list: sign with the wallet that follows it, and keep its key here. */
export function AdoptWallet({ onAdopted }: { onAdopted?: () => void }) {
  if (!useHasWallet()) return null;
  return <Adopt onAdopted={onAdopted} />;
}

function Adopt({ onAdopted }: { onAdopted?: () => void }) {
  const { mounted, address, canSign, busy, msg, run } = useSignedRequest();
  const adopt = () =>
    run(async (address, sign) => {
      const message = adoptMessage(address, new Date());
      const signature = await sign(message);
      if (typeof signature !== 'string') return signature;
      const r = await api.byWallet({ address, message, signature });
      if (!r.ok)
        return {
          ok: false,
          text:
            r.status === 404
              ? `No watchlist follows ${shortAddress(address)} yet. Watch something here, then use "Follow my wallet".`
              : r.error,
        };
      const prev = getLocal();
      setLocal({ ...r.value, items: prev?.id === r.value.id ? prev.items : [] });
      onAdopted?.();
      announceAlertsChanged();
      return { ok: true, text: `This browser now uses the watchlist that follows ${shortAddress(address)}.` };
    });
  if (!mounted) return null;
  return (
    <div className="wallet-follow" data-testid="wallet-adopt">
      <p>Already follow your wallet from another browser? Sign with it here to use the same list.</p>
      {!address ? (
        <ConnectWalletButton />
      ) : !canSign ? (
        <p className="form-error">This wallet cannot sign messages; try another wallet.</p>
      ) : (
        <button type="button" className="btn" onClick={adopt} disabled={busy} data-testid="adopt-wallet">
          {busy ? 'Waiting for the wallet…' : `Use the list of ${shortAddress(address)}`}
        </button>
      )}
      <Status msg={msg} />
    </div>
  );
}
