/**
 * A Wallet Standard wallet for the e2e specs, registered in the page with addInitScript through
 * the register-wallet event protocol (`wallet-standard:register-wallet` dispatched, and
 * `wallet-standard:app-ready` answered), exactly as Phantom or Solflare announce themselves, so
 * the app's unmodified wallet adapter finds it. Features: standard:connect, standard:disconnect,
 * standard:events, solana:signTransaction, solana:signAndSendTransaction, solana:signMessage. The key never enters the
 * page: the page asks the test process (a Playwright binding) to sign the message bytes, and the
 * test signs with @noble/curves ed25519 and a key it holds. The test can make the next signature
 * requests fail as a person's "reject" would.
 */
import { ed25519 } from '@noble/curves/ed25519.js';
import { PublicKey } from '@solana/web3.js';
import type { Page } from 'playwright-core';

export const TEST_WALLET_NAME = 'Zerox1 Test Wallet';

export interface TestWallet {
  publicKey: PublicKey;
  address: string;
  /** Makes the next `n` signature requests fail with "User rejected the request." */
  rejectNext(n?: number): void;
  /** Signature requests answered so far. */
  readonly signed: number;
  /** Installs the binding and the init script in `page` (before its first navigation). */
  install(page: Page): Promise<void>;
}

export function createTestWallet(secret: Uint8Array = ed25519.utils.randomSecretKey()): TestWallet {
  const pub = ed25519.getPublicKey(secret);
  const publicKey = new PublicKey(pub);
  let rejects = 0;
  let signed = 0;
  return {
    publicKey,
    address: publicKey.toBase58(),
    rejectNext(n = 1) {
      rejects = n;
    },
    get signed() {
      return signed;
    },
    async install(page) {
      await page.exposeFunction('__zx1TestWalletSign', (messageHex: string) => {
        if (rejects > 0) {
          rejects--;
          throw new Error('User rejected the request.');
        }
        signed++;
        return Buffer.from(ed25519.sign(Buffer.from(messageHex, 'hex'), secret)).toString('hex');
      });
      // tsx compiles this file with esbuild's keepNames, which wraps named functions in __name();
      // the page has no such helper, so give it an identity one before the wallet's script.
      await page.addInitScript('globalThis.__name = globalThis.__name || ((f) => f);');
      await page.addInitScript(installInPage, {
        name: TEST_WALLET_NAME,
        address: publicKey.toBase58(),
        publicKey: Array.from(pub),
      });
    },
  };
}

/** Runs in the page (serialised by Playwright): builds and registers the standard wallet object. */
function installInPage(cfg: { name: string; address: string; publicKey: number[] }): void {
  type Sign = (hex: string) => Promise<string>;
  const sign = (window as unknown as { __zx1TestWalletSign: Sign }).__zx1TestWalletSign;
  const hex = (b: Uint8Array) => Array.from(b, (x) => x.toString(16).padStart(2, '0')).join('');
  const unhex = (h: string) => Uint8Array.from(h.match(/../g)!.map((x) => parseInt(x, 16)));
  const chains = ['solana:localnet', 'solana:devnet', 'solana:testnet', 'solana:mainnet'] as const;
  const features = ['solana:signTransaction', 'solana:signAndSendTransaction', 'solana:signMessage'] as const;
  const account = {
    address: cfg.address,
    publicKey: new Uint8Array(cfg.publicKey),
    chains,
    features,
    label: 'test key',
  };
  const listeners: Record<string, ((p: unknown) => void)[]> = { change: [] };
  let connected = false;

  const shortVec = (b: Uint8Array, o: number): [number, number] => {
    let v = 0;
    let s = 0;
    for (let i = 0; ; i++) {
      const x = b[o + i];
      v |= (x & 0x7f) << s;
      s += 7;
      if (!(x & 0x80)) return [v, i + 1];
    }
  };
  /**
   * Signs a wire transaction: its message after the signature slots, our slot among the first numRequiredSignatures
   * keys.
   */
  const signWire = async (tx: Uint8Array): Promise<{ signed: Uint8Array; signature: Uint8Array }> => {
    const [n, len] = shortVec(tx, 0);
    const msgAt = len + 64 * n;
    const msg = tx.subarray(msgAt);
    const v0 = (msg[0] & 0x80) !== 0;
    const h = v0 ? 1 : 0;
    const required = msg[h];
    const [keys, kl] = shortVec(msg, h + 3);
    let slot = -1;
    for (let i = 0; i < Math.min(keys, required); i++) {
      const k = msg.subarray(h + 3 + kl + 32 * i, h + 3 + kl + 32 * (i + 1));
      if (k.every((x, j) => x === cfg.publicKey[j])) slot = i;
    }
    if (slot < 0) throw new Error('this wallet is not a signer of the transaction');
    const signature = unhex(await sign(hex(msg)));
    const out = new Uint8Array(tx);
    out.set(signature, len + 64 * slot);
    return { signed: out, signature };
  };
  const b58 = (bytes: Uint8Array): string => {
    const A = '123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz';
    let n = BigInt(`0x${hex(bytes) || '0'}`);
    let s = '';
    while (n > 0n) {
      s = A[Number(n % 58n)] + s;
      n /= 58n;
    }
    for (const x of bytes) {
      if (x !== 0) break;
      s = `1${s}`;
    }
    return s;
  };

  const wallet = {
    version: '1.0.0' as const,
    name: cfg.name,
    icon:
      `data:image/svg+xml;base64,` +
      `${btoa(
        '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 24 ' +
          '24"><circle cx="12" cy="12" r="10" fill="#7ee0c3"/></svg>',
      )}`,
    chains,
    get accounts() {
      return connected ? [account] : [];
    },
    features: {
      'standard:connect': {
        version: '1.0.0',
        connect: async () => {
          connected = true;
          for (const l of listeners.change) l({ accounts: [account] });
          return { accounts: [account] };
        },
      },
      'standard:disconnect': {
        version: '1.0.0',
        disconnect: async () => {
          connected = false;
          for (const l of listeners.change) l({ accounts: [] });
        },
      },
      'standard:events': {
        version: '1.0.0',
        on: (event: string, l: (p: unknown) => void) => {
          (listeners[event] ??= []).push(l);
          return () => {
            listeners[event] = listeners[event].filter((x) => x !== l);
          };
        },
      },
      'solana:signTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        signTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          const out = [];
          for (const i of inputs) out.push({ signedTransaction: (await signWire(i.transaction)).signed });
          return out;
        },
      },
      // Off-chain messages (the dispute desk's signed reviews): Ed25519 over the bytes as given.
      'solana:signMessage': {
        version: '1.0.0',
        signMessage: async (...inputs: { message: Uint8Array }[]) => {
          const out = [];
          for (const i of inputs)
            out.push({
              signedMessage: i.message,
              signature: unhex(await sign(hex(i.message))),
              signatureType: 'ed25519' as const,
            });
          return out;
        },
      },
      'solana:signAndSendTransaction': {
        version: '1.0.0',
        supportedTransactionVersions: ['legacy', 0],
        // The wallet's own RPC: the observatory's same-origin endpoint of the embedded chain.
        signAndSendTransaction: async (...inputs: { transaction: Uint8Array }[]) => {
          const out = [];
          for (const i of inputs) {
            const { signed, signature } = await signWire(i.transaction);
            const res = await fetch('/api/chain/rpc', {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({
                jsonrpc: '2.0',
                id: 1,
                method: 'sendTransaction',
                params: [btoa(String.fromCharCode(...signed)), { encoding: 'base64' }],
              }),
            });
            const j = (await res.json()) as { result?: string; error?: { message: string } };
            if (j.error || j.result !== b58(signature))
              throw new Error(j.error?.message ?? 'sendTransaction returned another signature');
            out.push({ signature });
          }
          return out;
        },
      },
    },
  };
  const register = ({ register: r }: { register: (w: unknown) => void }) => r(wallet);
  const ev = new Event('wallet-standard:register-wallet') as Event & { detail: unknown };
  Object.defineProperty(ev, 'detail', { value: register });
  window.dispatchEvent(ev);
  window.addEventListener('wallet-standard:app-ready', (e) => register((e as CustomEvent).detail));
}
