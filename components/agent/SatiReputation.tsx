/**
 * SATI's reputation line beside ours on the agent page. SATI defines an agent's reputation as the
 * plain average of the `score` of its FeedbackPublicV1 attestations, compressed accounts read only
 * through a Photon indexer (PHOTON_URL). Without one the page says so; with one it says this
 * server does not query it yet, instead of showing a number it cannot stand behind.
 */
import { SATI_REPUTATION_DEFINITION, type SatiReputationView } from '../../lib/wire';

export function SatiReputation({ r }: { r: SatiReputationView }) {
  return (
    <p className="small" data-testid="sati-reputation" data-state={r.state}>
      <span
        className="tip"
        title={
          `SATI reputation: ${SATI_REPUTATION_DEFINITION} ` +
          `(FeedbackPublicV1 attestations, read through a Photon indexer)`
        }
      >
        SATI reputation
      </span>
      :{' '}
      {r.state === 'not_configured' ? (
        <span className="muted">not configured (set PHOTON_URL to a Photon indexer)</span>
      ) : (
        <span className="muted">
          configured (Photon at {r.photonHost}) but not supported yet: this observatory does not query SATI&apos;s
          feedback
        </span>
      )}
    </p>
  );
}
