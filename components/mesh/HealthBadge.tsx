/**
 * A good / watch / bad badge for a mesh figure: its thresholds in the tooltip, and a link to the
 * glossary's entry on how the bands are judged (a link so keyboard users reach the tooltip too).
 */
import type { Level } from './health-bands';

export function HealthBadge({ level, value, thresholds }: { level: Level; value?: string; thresholds: string }) {
  return (
    <a href="/glossary#healthBand" className={`health-badge ${level}`} title={thresholds} data-level={level}>
      {level}
      {value ? <small>{value}</small> : null}
    </a>
  );
}
