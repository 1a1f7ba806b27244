/**
 * A two-column count table with proportional bars (counts per msg_type, drops per reason).
 */
import { count } from './format';

export interface CountTableProps {
  counts: Record<string, number>;
  /** Rows always shown, in this order, even at zero. */
  keys?: readonly string[];
  label: string;
  testId?: string;
  tone?: 'accent' | 'warn';
  empty?: string;
  /** A row's tooltip (what the key means). */
  describe?: (key: string) => string;
  /** A row's shown name when the key is a code (the code joins the tooltip). */
  name?: (key: string) => string;
}

export function CountTable({
  counts,
  keys,
  label,
  testId,
  tone = 'accent',
  empty = 'None.',
  describe,
  name = (k) => k,
}: CountTableProps) {
  const names = keys
    ? [
        ...keys,
        ...Object.keys(counts)
          .filter((k) => !keys.includes(k))
          .sort(),
      ]
    : Object.keys(counts).sort((a, b) => counts[b] - counts[a]);
  const rows = names.map((k) => [k, counts[k] ?? 0] as const).filter(([, n]) => keys || n > 0);
  const max = Math.max(1, ...rows.map(([, n]) => n));
  if (rows.length === 0) return <p className="muted empty">{empty}</p>;
  return (
    <table className={`counts ${tone}`} data-testid={testId} aria-label={label}>
      <tbody>
        {rows.map(([k, n]) => (
          <tr key={k} data-key={k} className={n === 0 ? 'zero' : undefined}>
            <th scope="row">
              {describe ? (
                <span className="tip" title={name(k) === k ? describe(k) : `${describe(k)} (${k})`}>
                  {name(k)}
                </span>
              ) : (
                name(k)
              )}
            </th>
            <td className="bar-cell">
              <span className="bar" style={{ width: `${(n / max) * 100}%` }} />
            </td>
            <td className="num mono">{count(n)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
