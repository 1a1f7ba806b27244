'use client';
/**
 * What a feature outside components/wallet needs to have a message signed: the connected
 * address, the wallet's signMessage (Ed25519 over the message bytes, absent when the wallet
 * cannot sign messages) and the connect button. Only this folder talks to the wallet adapter,
 * so features keep their signed forms in their own folders and reach the wallet through here.
 */
import { useWallet } from '@solana/wallet-adapter-react';
import { WalletMultiButton } from '@solana/wallet-adapter-react-ui';

export { isRejection } from './explain';
export { shortAddress } from './format';
export { useHasWallet, useMounted } from './WalletIsland';

export interface MessageSigner {
  /** The connected wallet's address (base58), null when none is connected. */
  address: string | null;
  /** Signs the UTF-8 bytes of `message`; null when the wallet has no signMessage. */
  signText: ((message: string) => Promise<Uint8Array>) | null;
}

export function useMessageSigner(): MessageSigner {
  const { publicKey, signMessage } = useWallet();
  return {
    address: publicKey?.toBase58() ?? null,
    signText: signMessage ? (message) => signMessage(new TextEncoder().encode(message)) : null,
  };
}

/** The wallet adapter's connect / switch button. */
export function ConnectWalletButton() {
  return <WalletMultiButton />;
}
