/**
 * The typed contract between the server and the browser: live events, `/api/stream` frames,
 * API view models and the JSON codec for bytes and 64-bit integers. zod schemas are the source
 * of truth; every type is inferred from one. Browser-safe (zod and lib/protocol only).
 */

export * from './agent-page';
export * from './chain-events';
export * from './chain-views';
export * from './codec';
export * from './datasets';
export * from './events';
export * from './haggle-events';
export * from './haggle-views';
export * from './history';
export * from './input-limits';
export * from './msg-type';
export * from './negotiation';
export * from './params';
export * from './score';
export * from './search';
export * from './stats';
export * from './verify';
export * from './views';
export * from './wallet';
