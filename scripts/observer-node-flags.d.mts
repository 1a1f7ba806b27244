/** V8 flags of the observatory process; see observer-node-flags.mjs. */
export declare const OBSERVER_NODE_FLAGS: readonly string[];
