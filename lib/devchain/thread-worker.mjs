// Entry of the embedded chain's worker thread (thread.ts). A worker does not inherit the module
// hooks the main thread was started with, so tsx is registered here before the chain's
// TypeScript entry is loaded.
import { register } from 'tsx/esm/api';

register();
await import('./thread-worker.ts');
