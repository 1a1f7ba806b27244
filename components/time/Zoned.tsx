'use client';
/**
 * Chart ticks and "times in …" captions in the zone the viewer chose: charts are drawn on the
 * server, which does not know that zone, so these small parts render UTC there and switch in the
 * browser after hydration, as every other time does.
 */
import { type TickForm, tickText, zoneText } from './format';
import { useZoneChoice, zoneOption } from './zone';

/** One axis tick's text (an SVG `<text>` child). */
export function ZonedTick({ ms, form }: { ms: number; form: TickForm }) {
  const c = useZoneChoice();
  return tickText(ms, form, c === null ? 'UTC' : zoneOption(c));
}

/** The shown zone's short name (`CET`, `UTC`), for captions such as "times in CET". */
export function ZoneName() {
  const c = useZoneChoice();
  return zoneText(Date.now(), c === null ? 'UTC' : zoneOption(c));
}
