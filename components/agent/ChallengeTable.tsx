/**
 * The agent page's challenges against the agent: the batch epoch (linking to the batch pinned on the
 * page), status, challenger and each transition's transaction, every id with its copy button; a phone
 * shows each as a card.
 */
import type { ChallengeRowView } from '../../lib/wire';
import { AccountLink, TxLink } from '../site';
import { Td } from '../table/DataTable';
import { EpochTime } from '../time/Time';

/**
 * The agent page's link to one of its batches (relative: the same agent page), pinned there whatever page of batches
 * holds it.
 */
export const batchHref = (epoch: string) => `?batch=${epoch}#batch-${epoch}`;

export function ChallengeTable({ challenges }: { challenges: readonly ChallengeRowView[] }) {
  return (
    <div className="table-wrap dt-wrap">
      <table className="list dt" data-testid="agent-challenges">
        <thead>
          <tr>
            <th data-col="priority">Epoch</th>
            <th data-col="priority">Status</th>
            <th data-col="priority">Challenger</th>
            <th>Transitions</th>
          </tr>
        </thead>
        <tbody>
          {challenges.map((x) => (
            <tr key={x.address}>
              <Td label="Epoch" className="small">
                <a href={batchHref(x.epoch)}>
                  <EpochTime epoch={x.epoch} label={false} />
                </a>
              </Td>
              <Td label="Status">{x.status}</Td>
              <Td label="Challenger">
                <AccountLink address={x.challenger} copy />
              </Td>
              <Td label="Transitions" className="small">
                {x.transitions.map((t, i) => (
                  <span key={`${t.status}:${t.signature}`}>
                    {i > 0 ? ' → ' : ''}
                    {t.status} <TxLink signature={t.signature} head={5} copy />
                  </span>
                ))}
              </Td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
