/** The one-click challenge candidates over the running store (lib/indexer/challenge-candidates.ts). */
import { challengeCandidates as candidates } from '../lib/indexer/challenge-candidates';
import type { Store } from '../lib/store';
import type { ChallengeCandidateList } from '../lib/wire';

export function challengeCandidates(store: Store, agent: Uint8Array, epoch: bigint): Promise<ChallengeCandidateList> {
  return candidates(
    {
      epochLog: (a, e) => store.epochLog(a, e),
      onChainBatchUpload: (a, e) => store.onChainBatchUpload(a, e),
      listBatches: (p) => store.listBatches(p),
    },
    agent,
    epoch,
  );
}
