import type { NextConfig } from 'next';

/**
 * The observer (libp2p, Prisma, PGlite, native crypto) runs in the custom server process
 * (server/main.ts), never inside Next's server bundle: route handlers and pages reach it only
 * through the services registry in app/_lib/services.ts. Listing the heavy packages here is the second
 * guard: should one be imported by mistake, Next loads it with Node's own resolver at run time
 * instead of bundling it.
 */
const serverExternalPackages = [
  'libp2p',
  '@libp2p/gossipsub',
  '@libp2p/tcp',
  '@libp2p/websockets',
  '@libp2p/identify',
  '@libp2p/kad-dht',
  '@libp2p/mdns',
  '@libp2p/bootstrap',
  '@libp2p/circuit-relay-v2',
  '@libp2p/webrtc',
  '@libp2p/crypto',
  '@libp2p/peer-id',
  '@chainsafe/libp2p-noise',
  '@chainsafe/libp2p-yamux',
  '@multiformats/multiaddr',
  '@prisma/client',
  '@prisma/adapter-pg',
  '@prisma/driver-adapter-utils',
  'pglite-prisma-adapter',
  '@electric-sql/pglite',
  'pg',
  'sodium-native',
  'hash-wasm',
  'cbor-x',
  'ws',
  'litesvm',
  'snappy',
  'esbuild',
];

const nextConfig: NextConfig = {
  reactStrictMode: true,
  poweredByHeader: false,
  serverExternalPackages,
  // `next build` does not type-check: `npm run typecheck` (run by CI before any build) checks the
  // whole tree, the web app included, and checking it again inside the build added about 20 s to
  // a fresh clone's first `npm start`. The tsconfig still gives the build its paths and JSX mode.
  typescript: { tsconfigPath: 'tsconfig.next.json', ignoreBuildErrors: true },
};

export default nextConfig;
