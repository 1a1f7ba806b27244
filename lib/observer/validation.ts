/**
 * The observer's validation (docs/protocol.md "Validation"): live mode for gossip and streams
 * (per-sender nonces, the timestamp window at arrival from the injected clock), archive mode for
 * uploads; signer keys from the cached registry, a cache miss loads the sender's keys and runs
 * once more; signatures checked on worker threads when there are any.
 *
 * Drops are named by the registry's reasons where it has them (docs/protocol.md "Drop reasons"):
 * an `unregistered` sender takes the reason the source gave (`not_sati_member`, …), and an
 * envelope whose signature fails under every allowed key is checked against the keys the source
 * refuses (an expired or revoked delegate, a former owner), so it is dropped as
 * `delegation_expired`, `delegation_revoked` or `not_owner_or_delegate` rather than `signature`.
 * Only refusals pay for this, never accepted envelopes.
 */
import type { MeshValidateMeta, MeshValidationOutcome } from '../mesh';
import { ed25519Verify } from '../protocol/crypto';
import type { ValidationResult } from '../protocol/types';
import {
  finishValidation,
  type PendingSignature,
  prepareValidation,
  type SyncSignerRegistry,
  validateEnvelopeSync,
} from '../protocol/validate';
import type { CachedSignerRegistry } from './registry';
import { createSignaturePool, defaultVerifyWorkers, type SignaturePool } from './verify-pool';

/** lib/protocol's result, or a refusal named by the signer registry (module comment). */
export type ObservedResult = ValidationResult | { ok: false; reason: string; detail?: string };

/** An archive check: its result, or (signature on a worker) a promise of it. */
export type ArchiveCheck = ObservedResult | { pending: Promise<ObservedResult> };

/** Validation of one observer; see {@link createValidation}. */
export interface Validation {
  /**
   * The mesh's validator: live mode. An accepted envelope is returned as lib/protocol's result
   * (`{ ok: true, envelope, id }`), which the mesh hands to `onAccepted`; a refusal is `ignore`
   * for `replay` and `timestamp` (no score penalty), `reject` otherwise, with the reason.
   * After {@link Validation.close} everything is ignored.
   */
  readonly validateLive: (
    bytes: Uint8Array,
    meta: MeshValidateMeta,
  ) => Promise<MeshValidationOutcome> | MeshValidationOutcome;
  /**
   * Archive mode (uploads). Resolves once the steps before the signature are done; on workers
   * the signature check then runs concurrently with later calls (archive mode has no
   * order-dependent state).
   */
  archive(bytes: Uint8Array): Promise<ArchiveCheck>;
  /** True when signatures are checked on worker threads. */
  readonly workers: boolean;
  /** From now on every live envelope is ignored (the observer is stopping). */
  halt(): void;
  /** Stops the workers (after the mesh has stopped: checks in flight still finish). */
  close(): Promise<void>;
}

export interface ValidationParams {
  registry: CachedSignerRegistry;
  /** Unix ms; live mode's timestamp check. */
  clock: () => number;
  /** Worker threads checking signatures: default available cores − 1 (at least 1); 0 = on the event loop. */
  verifyWorkers?: number;
  /** Told when workers cannot start (validation then runs on the event loop). */
  onWorkersUnavailable?: (err: unknown) => void;
}

class RegistryMiss {
  constructor(readonly agentId: Uint8Array) {}
}

/** Creates the observer's validation with its own nonce state and signature pool. */
export function createValidation(params: ValidationParams): Validation {
  const { registry, clock } = params;
  const nonces = new Map<string, bigint>();
  let stopped = false;

  /** The registry's cache as lib/protocol's synchronous registry; a miss throws RegistryMiss. */
  const cachedKeys: SyncSignerRegistry = {
    keysFor: (id) => {
      const k = registry.peek(id);
      if (k === undefined) throw new RegistryMiss(id);
      return k;
    },
  };

  /** Runs `fn` with the cached keys; on a cache miss, loads the sender's keys and runs it once more. */
  async function withKeys<T>(fn: (keys: SyncSignerRegistry) => T): Promise<T> {
    try {
      return fn(cachedKeys);
    } catch (e) {
      if (!(e instanceof RegistryMiss)) throw e;
      await registry.load(e.agentId);
      return fn(cachedKeys);
    }
  }

  /** All of §3 on the event loop. */
  const check = (bytes: Uint8Array, mode: 'live' | 'archive'): Promise<ObservedResult> =>
    withKeys((keys) =>
      named(
        bytes,
        mode === 'live'
          ? validateEnvelopeSync(bytes, { mode, registry: keys, nonces, nowUs: BigInt(clock()) * 1000n })
          : validateEnvelopeSync(bytes, { mode, registry: keys }),
      ),
    );

  /** Names an `unregistered` or `signature` refusal by the registry's cached reasons (module comment). */
  function named(bytes: Uint8Array, r: ValidationResult): ObservedResult {
    if (r.ok || (r.reason !== 'unregistered' && r.reason !== 'signature')) return r;
    let agent: Uint8Array | undefined;
    let why: string | undefined;
    let refused: ReturnType<CachedSignerRegistry['refusal']>['refused'] = [];
    const p = prepareValidation(bytes, {
      keysFor(id) {
        agent = id;
        ({ reason: why, refused } = registry.refusal(id));
        return refused.map((x) => x.key);
      },
    });
    if (agent === undefined) return r;
    if (r.reason === 'unregistered') return why && why !== r.reason ? { ok: false, reason: why } : r;
    if (!('ok' in p))
      for (const x of refused)
        if (ed25519Verify(p.signature, p.preimage, x.key)) return { ok: false, reason: x.reason };
    registry.revalidate(agent);
    return r;
  }

  /** §3 up to the signature (the rest runs in finishValidation once a worker has checked it). */
  const prepare = (bytes: Uint8Array): Promise<ValidationResult | PendingSignature> =>
    withKeys((keys) => prepareValidation(bytes, keys));

  const verifyWorkers = params.verifyWorkers ?? defaultVerifyWorkers();
  let pool: SignaturePool | undefined;
  try {
    pool = verifyWorkers > 0 ? createSignaturePool({ workers: verifyWorkers }) : undefined;
  } catch (e) {
    params.onWorkersUnavailable?.(e);
  }

  /** The mesh's outcome for a live result. */
  const outcome = (r: ObservedResult): MeshValidationOutcome =>
    r.ok ? r : { result: r.reason === 'replay' || r.reason === 'timestamp' ? 'ignore' : 'reject', reason: r.reason };

  /** The live check with workers, once the sender's keys are cached (or known to be absent). */
  function liveOnPool(
    w: SignaturePool,
    bytes: Uint8Array,
    nowUs: bigint,
  ): Promise<MeshValidationOutcome> | MeshValidationOutcome {
    const p = prepareValidation(bytes, cachedKeys);
    if ('ok' in p) return outcome(named(bytes, p));
    return w
      .verify(p.signature, p.preimage, p.keys)
      .then((verified) => outcome(named(bytes, finishValidation(p, verified, { mode: 'live', nonces, nowUs }))));
  }

  /**
   * Without workers it is synchronous on a cache hit. With workers, the signature is checked on
   * a worker and the rest of §3 (nonce, timestamp at arrival) runs when the pool resolves, which
   * it does in submission order: either way envelopes of one sender are finished in arrival
   * order, as the per-sender nonce rule needs. On a cache hit no promise is made but the
   * signature check's (this runs for every envelope of the mesh).
   */
  function validateLive(
    bytes: Uint8Array,
    _meta: MeshValidateMeta,
  ): Promise<MeshValidationOutcome> | MeshValidationOutcome {
    if (stopped) return 'ignore';
    if (pool === undefined) return check(bytes, 'live').then(outcome);
    const w = pool;
    const nowUs = BigInt(clock()) * 1000n;
    try {
      return liveOnPool(w, bytes, nowUs);
    } catch (e) {
      if (!(e instanceof RegistryMiss)) throw e;
      return registry.load(e.agentId).then(() => liveOnPool(w, bytes, nowUs));
    }
  }

  async function archive(bytes: Uint8Array): Promise<ArchiveCheck> {
    if (pool === undefined) return check(bytes, 'archive');
    const p = await prepare(bytes);
    if ('ok' in p) return named(bytes, p);
    const w = pool;
    return {
      pending: w
        .verify(p.signature, p.preimage, p.keys)
        .then((v) => named(bytes, finishValidation(p, v, { mode: 'archive' }))),
    };
  }

  return {
    validateLive,
    archive,
    workers: pool !== undefined,
    halt() {
      stopped = true;
    },
    async close() {
      stopped = true;
      await pool?.close();
    },
  };
}
