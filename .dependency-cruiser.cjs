/**
 * Dependency boundaries of the repository, checked by dependency-cruiser.
 *
 * `npm test -- scripts/boundaries` runs this over the tree and fails on any violation; so does
 * `npx depcruise --config .dependency-cruiser.cjs app components server lib scripts programs e2e`.
 * The folder table with its "may import" column is docs/architecture.md "Folders"; LAYERS below
 * is the same table for lib/*, and the rules are derived from it. Why dependency-cruiser:
 * docs/decisions/boundary-check.md.
 *
 * Harness files (tests, test helpers, benches) are drivers, like server/: they assemble real
 * parts across layers, so the layer and owner rules apply to the code they drive, not to them.
 * They are still held to: no cycles, nothing from lib/protocol reaches outside lib/protocol, and
 * components/ reach only browser-safe code.
 */

/** Tests, test helpers (named `testing.ts`, or `<topic>-testing.ts` beside it) and benches. */
const HARNESS = '(\\.test\\.(ts|tsx|mts)$)|(^|/|-)testing\\.ts$|(^|/)bench\\.ts$|^lib/observer/testdata/';
/** Folders that compose everything: the process, bench and tool scripts, end-to-end drivers. */
const ROOTS = '^(server|scripts|e2e)/';
const REPO = '^(app|components|server|lib|scripts|programs|e2e|prisma)/';

/** lib/<name> -> the lib folders it may import (besides itself). lib/protocol is pure and
 *  dependency-free, so every layer may use it; the table lists it where the layer is built on it. */
const LAYERS = {
  protocol: [],
  net: ['protocol'],
  wire: ['protocol'],
  chain: ['protocol', 'net'],
  devchain: ['chain', 'protocol'],
  mesh: ['protocol'],
  store: ['protocol', 'wire'],
  observer: ['protocol', 'mesh', 'store', 'wire'],
  indexer: ['chain', 'store', 'wire', 'protocol'],
  export: ['protocol', 'store', 'wire'],
  agents: ['protocol', 'mesh', 'chain'],
  api: ['wire', 'protocol'],
  mcp: ['wire', 'protocol'],
  verify: ['protocol', 'chain', 'wire'],
  alerts: ['store', 'wire', 'protocol', 'net'],
};

/** Outside worlds and the one lib folder that owns each. */
const OWNERS = [
  { name: 'solana-only-in-chain', owners: ['chain', 'devchain'], pkgs: '@solana/[^/]+' },
  { name: 'litesvm-only-in-devchain', owners: ['devchain'], pkgs: 'litesvm' },
  {
    name: 'database-only-in-store',
    owners: ['store'],
    pkgs: '@prisma/[^/]+|prisma|pg|pg-copy-streams|@electric-sql/pglite|pglite-prisma-adapter',
  },
  {
    name: 'libp2p-only-in-mesh',
    owners: ['mesh'],
    pkgs: 'libp2p|@libp2p/[^/]+|@chainsafe/[^/]+|@multiformats/[^/]+|it-length-prefixed|it-pipe',
  },
  { name: 'mcp-sdk-only-in-mcp', owners: ['mcp'], pkgs: '@modelcontextprotocol/sdk' },
  { name: 'openapi-only-in-api', owners: ['api'], pkgs: 'zod-openapi' },
];

/** npm packages lib/protocol may use: crypto and CBOR, nothing that does I/O. */
const PROTOCOL_NPM = '@noble/curves|@noble/hashes|cbor-x|hash-wasm|sodium-native';

/** The browser-safe part of lib/mesh: the browser node factory and what it imports. */
const MESH_BROWSER = '^lib/mesh/(browser|topics|constants|transports)\\.ts$';

/**
 * The faces of lib/store the rest of the repository may import: its index, each feature folder's
 * index (its port and row types) and its test support (tests and benches only, by
 * no-test-support-in-source).
 */
const STORE_FACES = [
  '^lib/store/index\\.ts$',
  '^lib/store/[a-z-]+/index\\.ts$',
  '^lib/store/(backends-)?testing\\.ts$',
];

const lib = (names) => `^lib/(${names.join('|')})/`;
const npm = (pkgs) => `(^|/)node_modules/(${pkgs})/`;

const layerRules = Object.entries(LAYERS).map(([name, allowed]) => ({
  name: `layer-${name}`,
  severity: 'error',
  comment:
    `lib/${name} may import only ` +
    `${allowed.length ? allowed.map((a) => `lib/${a}`).join(', ') : 'itself'} from the repository`,
  from: { path: `^lib/${name}/`, pathNot: HARNESS },
  to: { path: REPO, pathNot: lib([name, ...allowed]) },
}));

/**
 * The browser wallet's packages: the wallet adapter (React providers, modal) and the Wallet
 * Standard. Only components/wallet (the client island) and the composition roots (e2e's test
 * wallet) import them; they are not "@solana/* owned by lib/chain": web3.js primitives still come
 * from lib/chain.
 */
const WALLET_PKGS = '@solana/wallet-adapter-[^/]+|@solana/wallet-standard-[^/]+|@wallet-standard/[^/]+';

const ownerRules = OWNERS.map(({ name, owners, pkgs }) => ({
  name,
  severity: 'error',
  comment: `only ${owners.map((o) => `lib/${o}`).join(', ')} (and server/, scripts/, e2e/, harnesses) import ${pkgs}`,
  from: { pathNot: [lib(owners), ROOTS, HARNESS, '^programs/', '^prisma/'] },
  to: { path: npm(pkgs), pathNot: npm(WALLET_PKGS) },
}));

module.exports = {
  forbidden: [
    {
      name: 'no-circular',
      severity: 'error',
      comment: 'no import cycles, type-only edges included',
      from: {},
      to: { circular: true },
    },
    {
      name: 'protocol-self-contained',
      severity: 'error',
      comment: 'lib/protocol (tests included) imports nothing in the repository outside lib/protocol',
      from: { path: '^lib/protocol/' },
      to: { path: REPO, pathNot: '^lib/protocol/' },
    },
    {
      name: 'protocol-no-io',
      severity: 'error',
      comment: 'lib/protocol uses node:crypto and crypto/CBOR packages only: no I/O, clock or randomness of its own',
      from: { path: '^lib/protocol/', pathNot: HARNESS },
      to: { dependencyTypes: ['core'], pathNot: '^(node:)?crypto$' },
    },
    {
      name: 'protocol-npm',
      severity: 'error',
      comment: `lib/protocol imports only ${PROTOCOL_NPM} from npm`,
      from: { path: '^lib/protocol/', pathNot: HARNESS },
      to: { path: '(^|/)node_modules/', pathNot: npm(PROTOCOL_NPM) },
    },
    ...layerRules,
    {
      name: 'chain-browser-safe',
      severity: 'error',
      comment: 'lib/chain outside lib/chain/node runs in browsers: no node:* builtins',
      from: { path: '^lib/chain/', pathNot: ['^lib/chain/node/', HARNESS] },
      // `buffer` is the npm package browser bundlers resolve (web3.js's own dependency), not Node's.
      to: { dependencyTypes: ['core'], pathNot: '^buffer$' },
    },
    {
      name: 'verify-browser-safe',
      severity: 'error',
      comment: 'lib/verify runs in browsers: no node:* builtins',
      from: { path: '^lib/verify/', pathNot: HARNESS },
      to: { dependencyTypes: ['core'], pathNot: '^buffer$' },
    },
    {
      name: 'mesh-browser-safe',
      severity: 'error',
      comment:
        'the browser node of lib/mesh (browser.ts, topics.ts, constants.ts, ' +
        'transports.ts) runs in browsers: no node:* builtins, not node.ts or shims.ts',
      from: { path: MESH_BROWSER },
      to: { dependencyTypes: ['core'] },
    },
    {
      name: 'mesh-browser-no-node-part',
      severity: 'error',
      comment: 'the browser node of lib/mesh does not reach the Node factory or its shims',
      from: { path: MESH_BROWSER },
      to: { path: '^lib/mesh/(node|shims|inbound|envelope-stream)\\.ts$' },
    },
    {
      name: 'verify-no-node-chain',
      severity: 'error',
      comment: 'lib/verify reads the chain through browser-safe lib/chain only',
      from: { path: '^lib/verify/', pathNot: HARNESS },
      to: { path: '^lib/chain/node/' },
    },
    {
      name: 'chain-browser-safe-no-node-part',
      severity: 'error',
      comment: 'browser-safe lib/chain does not reach into lib/chain/node or lib/net (node-only)',
      from: { path: '^lib/chain/', pathNot: ['^lib/chain/node/', HARNESS] },
      to: { path: '^lib/(chain/node|net)/' },
    },
    ...ownerRules,
    {
      name: 'wallet-adapter-only-in-components-wallet',
      severity: 'error',
      comment: `only components/wallet (and server/, scripts/, e2e/, harnesses) import ${WALLET_PKGS}`,
      from: { pathNot: ['^components/wallet/', ROOTS, HARNESS] },
      to: { path: npm(WALLET_PKGS) },
    },
    {
      name: 'components-browser-safe',
      severity: 'error',
      comment:
        'components/ (tests included) import from the repository only components, lib/wire, ' +
        'lib/protocol, lib/verify, browser-safe lib/chain and the browser node of lib/mesh',
      from: { path: '^components/' },
      to: {
        path: REPO,
        pathNot: ['^components/', '^lib/(wire|protocol|verify)/', '^lib/chain/(?!node/)', MESH_BROWSER],
      },
    },
    {
      name: 'components-no-node-builtins',
      severity: 'error',
      comment: 'components/ run in browsers: no node:* builtins',
      from: { path: '^components/', pathNot: HARNESS },
      to: { dependencyTypes: ['core'], pathNot: '^buffer$' },
    },
    {
      name: 'app-pages-through-lib',
      severity: 'error',
      comment:
        'pages and layouts reach server parts through app/_lib; route handlers (app/api/**/route.ts) call lib directly',
      from: { path: '^app/', pathNot: ['^app/_lib/', '^app/api/.*/route\\.tsx?$', HARNESS] },
      to: { path: '^lib/(store|observer|indexer|mesh|devchain|agents|export|chain/node)/' },
    },
    {
      name: 'app-lib-no-components',
      severity: 'error',
      comment:
        'app/_lib (tests included) maps lib/ reads into view models and imports ' +
        'nothing from components/: shared display code and view types live in lib/wire',
      from: { path: '^app/_lib/' },
      to: { path: '^components/' },
    },
    {
      name: 'nothing-imports-server',
      severity: 'error',
      comment: 'server/ is the composition root: app, components and lib never import it',
      from: { path: '^(app|components|lib)/' },
      to: { path: '^server/' },
    },
    {
      name: 'lib-not-upward',
      severity: 'error',
      comment: 'lib/ does not import app/, components/, scripts/, programs/ or e2e/',
      from: { path: '^lib/', pathNot: HARNESS },
      to: { path: '^(app|components|scripts|programs|e2e)/' },
    },
    {
      name: 'programs-tools-scope',
      severity: 'error',
      comment:
        'programs/ TypeScript (build tools, LiteSVM tests, test clients) uses only lib/chain and lib/protocol from lib',
      from: { path: '^programs/' },
      to: { path: REPO, pathNot: ['^programs/', '^lib/(chain|protocol)/'] },
    },
    {
      name: 'store-through-index',
      severity: 'error',
      comment:
        'outside lib/store, import lib/store (index.ts) or the index of a feature ' +
        'folder (lib/store/<feature>/index.ts), and in tests and benches ' +
        'lib/store/testing.ts or backends-testing.ts: never a file inside a feature',
      from: { pathNot: '^lib/store/' },
      to: { path: '^lib/store/', pathNot: STORE_FACES },
    },
    {
      name: 'no-test-support-in-source',
      severity: 'error',
      comment: 'production code does not import tests, test helpers or benches',
      from: { pathNot: [HARNESS, '^(scripts|e2e|programs)/'] },
      to: { path: HARNESS },
    },
  ],
  options: {
    doNotFollow: { path: ['(^|/)node_modules/', '^lib/store/generated/'] },
    exclude: { path: ['^\\.next/', '^\\.data/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: {
      exportsFields: ['exports'],
      conditionNames: ['import', 'require', 'node', 'default', 'types'],
      extensions: ['.ts', '.tsx', '.mts', '.js', '.mjs', '.cjs', '.d.ts'],
    },
  },
};
