/** Compute units of the SATI stand-in (npm run bench:programs -- sati_registry). */

import { satiInitializeInstruction } from '../../lib/chain/sati';
import { fundedWallet, Keypair, newSvm, registerSati, sendOk } from '../testing';
import type { BenchRow } from '../tools/bench';

export default function bench(): BenchRow[] {
  const svm = newSvm({ programs: ['sati_registry'] });
  const admin = fundedWallet(svm);
  const group = Keypair.generate();
  const init = sendOk(
    svm,
    [satiInitializeInstruction({ authority: admin.publicKey, groupMint: group.publicKey, createGroupMint: true })],
    [admin, group],
  );
  const owner = Keypair.generate().publicKey;
  const plain = registerSati(svm, admin, owner, {
    name: 'agent',
    symbol: 'AGENT',
    uri: 'https://example.org/agent.json',
  });
  const full = registerSati(svm, admin, owner, {
    name: 'n'.repeat(32),
    symbol: 's'.repeat(10),
    uri: 'u'.repeat(200),
    nonTransferable: true,
    additionalMetadata: [
      ['zerox1-mesh', '/ip4/203.0.113.7/tcp/4001/p2p/12D3KooWGzh8Cn6nKrW4V3rGkR9nhNiLn7DNZrx9bX2HvE1FvY1q'],
      ['version', '1'],
    ],
  });
  return [
    { instruction: 'initialize (creates the group mint)', cu: init.computeUnits },
    { instruction: 'register_agent (no extra fields)', cu: plain.result.computeUnits },
    { instruction: 'register_agent (longest strings, 2 fields, non-transferable)', cu: full.result.computeUnits },
  ];
}
