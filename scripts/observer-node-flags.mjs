// V8 flags of the observatory process (`npm start` and `npm run bench:ingest` run the observer
// with them). The observer allocates a few tens of kB per envelope (libp2p's frames, GossipSub's
// caches, the ingest batch, live events), most of it dead within a batch: with V8's default
// 16 MB young generation it ran a scavenge every few hundred milliseconds under load, and
// parallel scavenging spread each one over V8's helper threads, which on two cores (one of them
// the signature worker's) cost more in coordination than it saved. A 32 MB semi-space halves
// the scavenges and lets more of a batch die young; scavenging on the event loop alone keeps
// that work where it is counted, while marking and sweeping stay concurrent (short pauses).
// bench:ingest prints the split of the observer's CPU per thread (docs/architecture.md).
export const OBSERVER_NODE_FLAGS = ['--max-semi-space-size=32', '--no-parallel-scavenge'];
