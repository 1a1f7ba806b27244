'use client';
/**
 * The header's clock switch: every time on every page in the viewer's own zone (named by its
 * abbreviation, e.g. CET) or in UTC. Before hydration the server's UTC form is shown, so the
 * button names UTC until the browser knows its zone.
 */
import { zoneText } from './format';
import { setZoneChoice, useZoneChoice } from './zone';

export function ZoneToggle() {
  const choice = useZoneChoice();
  const own = choice === null ? null : zoneText(Date.now());
  const label = choice === null ? 'UTC' : choice === 'utc' ? 'UTC' : own;
  return (
    <button
      type="button"
      className="theme-toggle"
      data-testid="zone-toggle"
      data-choice={choice ?? ''}
      onClick={() => setZoneChoice(choice === 'utc' ? 'local' : 'utc')}
      title={
        choice === 'utc'
          ? `Times are shown in UTC. Click for your own zone (${own}).`
          : `Times are shown in your zone (${own ?? 'known once the page has loaded'}). Click for UTC. ` +
            'Kept in this browser; hovering a time always shows UTC.'
      }
    >
      Times: {label}
    </button>
  );
}
