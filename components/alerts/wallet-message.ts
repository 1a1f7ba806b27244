/**
 * The texts a wallet signs to tie a watchlist to it, and the signature's spelling on the wire.
 * The server parses the same text (lib/wire/alerts.ts: address, watchlist, time), so a signature proves
 * the wallet's holder asked for this list just now. Browser-safe, pure.
 */

import { watchlistWalletMessage } from '../../lib/wire/alerts';

/** Signed to make `address` follow watchlist `id` (its agents become watched). */
export function linkMessage(id: string, address: string, at: Date): string {
  return watchlistWalletMessage(id, address, at);
}

/**
 * Signed in another browser to take over the watchlist `address` follows: that browser does not
 * know the list's id, so the message names any list (`*`); the server answers with the one bound.
 */
export function adoptMessage(address: string, at: Date): string {
  return linkMessage('*', address, at);
}

/** The signature as base64 of its 64 bytes (the server also reads base58 and hex). */
export function encodeSignature(sig: Uint8Array): string {
  let s = '';
  for (const b of sig) s += String.fromCharCode(b);
  return btoa(s);
}
