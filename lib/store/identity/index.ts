/**
 * lib/store/identity: who may sign for an agent, and wallet signatures used once
 * (lib/store/identity/README.md). IdentityPort: the signer registry and the used signatures.
 */
import 'server-only';
import type { PortContext } from '../engine/port';
import { type UsedSignatures, usedSignatures } from './used-signatures';

export type { UsedSignatures } from './used-signatures';

export interface IdentityPort {
  /** Adds a signer key for an agent (idempotent by agent + key). docs/protocol.md §2 "Signer". */
  registerSignerKey(k: {
    agentId: Uint8Array;
    publicKey: Uint8Array;
    role?: 'owner' | 'delegate';
    source?: 'local' | 'chain';
  }): Promise<void>;
  removeSignerKey(agentId: Uint8Array, publicKey: Uint8Array): Promise<void>;
  /** SignerRegistry.keysFor (lib/protocol/types.ts): keys in registration order; [] if unknown. */
  keysFor(agentId: Uint8Array): Promise<readonly Uint8Array[]>;
  /** Wallet signatures accepted once, by their decoded bytes, across restarts (used-signatures.ts). */
  readonly usedSignatures: UsedSignatures;
}

export function identityPort({ db, prisma, live }: PortContext): IdentityPort {
  return {
    registerSignerKey: (k) =>
      live(async () => {
        if (!(k.agentId instanceof Uint8Array) || k.agentId.length !== 32)
          throw new TypeError('agentId must be 32 bytes');
        if (!(k.publicKey instanceof Uint8Array) || k.publicKey.length !== 32)
          throw new TypeError('publicKey must be 32 bytes');
        await db.query(
          `INSERT INTO signer_key (agent_id, public_key, role, source) VALUES ($1, $2, $3::"SignerRole",
            $4::"KeySource")
        ON CONFLICT (agent_id, public_key) DO UPDATE SET role = excluded.role, source = excluded.source`,
          [k.agentId, k.publicKey, k.role ?? 'owner', k.source ?? 'local'],
        );
      }),
    removeSignerKey: (agentId, publicKey) =>
      live(async () => {
        await prisma.signerKey.deleteMany({
          where: { agentId: new Uint8Array(agentId), publicKey: new Uint8Array(publicKey) },
        });
      }),
    keysFor: (agentId) =>
      live(async () => {
        const rows = await prisma.signerKey.findMany({
          where: { agentId: new Uint8Array(agentId) },
          orderBy: { id: 'asc' },
        });
        return rows.map((r) => new Uint8Array(r.publicKey));
      }),
    usedSignatures: usedSignatures(db),
  };
}
