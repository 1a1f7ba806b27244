/**
 * The list tables' one layout (/batches, /challenges, /agents, /disputes and the shared lists):
 * each table names its priority columns, drawn at every width; the others fold into a "details"
 * disclosure in the row when the table's box is narrower than `fold` (a container query, no
 * measuring), and on a phone (≤ 600 px) each row is a card of label: value lines. Where a table
 * still scrolls sideways its box shows an edge shadow on the side with more (components/table/table.css).
 * No hooks: it renders in server pages and in client components alike.
 */
import type { CSSProperties, HTMLAttributes, ReactNode } from 'react';

export interface Column<R> {
  /** The value's name on a phone's card and in the folded details; the header unless `head` is given. */
  label: string;
  head?: ReactNode;
  /** Drawn at every width, never folded into the details. */
  priority?: boolean;
  /** No label on a phone's card (an action such as "verify" that names itself). */
  bare?: boolean;
  className?: string;
  /** The header cell's class, when it differs from the cells'. */
  headClassName?: string;
  cell: (row: R) => ReactNode;
  /** Replaces this cell and the next `span - 1` (one note across several columns); null draws them as usual. */
  span?: (row: R) => { cells: number; node: ReactNode; className?: string; label?: string } | null;
}

/** The table's box width below which the other columns fold: the table's own width with every column shown. */
export type Fold = 'sm' | 'md' | 'lg' | 'xl' | 'never';

type RowAttrs = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, string | undefined>;

export function DataTable<R>({
  columns,
  rows,
  rowKey,
  rowProps,
  testId,
  className,
  fold = 'md',
  detailsIn,
}: {
  columns: Column<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  rowProps?: (row: R) => RowAttrs;
  testId?: string;
  className?: string;
  fold?: Fold;
  /** The column whose cell holds the row's details disclosure; the first priority column unless given. */
  detailsIn?: number;
}) {
  const folding = fold !== 'never' && columns.some((c) => !c.priority);
  const holder = folding
    ? (detailsIn ??
      Math.max(
        0,
        columns.findIndex((c) => c.priority),
      ))
    : -1;
  return (
    <div className={`table-wrap dt-wrap dt-fold-${fold}`}>
      <table className={`list dt ${className ?? ''}`} data-testid={testId}>
        <thead>
          <tr>
            {columns.map((c) => (
              <th key={c.label} className={c.headClassName ?? c.className} data-col={col(c)}>
                {c.head ?? c.label}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((r) => (
            <tr key={rowKey(r)} {...rowProps?.(r)}>
              {cells(columns, r, holder)}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

const col = <R,>(c: Column<R>) => (c.priority ? 'priority' : 'more');
const label = <R,>(c: Column<R>) => (c.bare ? undefined : c.label);

/** One row's cells, a span standing for the cells it covers, the details in the holder column's cell. */
function cells<R>(columns: Column<R>[], r: R, holder: number): ReactNode[] {
  const out: ReactNode[] = [];
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i];
    const s = c.span?.(r);
    const details = i === holder ? <Details columns={columns} r={r} /> : null;
    out.push(
      <td
        key={c.label}
        colSpan={s ? s.cells : undefined}
        className={s ? s.className : c.className}
        data-label={s?.label ?? label(c)}
        data-col={col(c)}
      >
        {/* One box for the value, so a phone's card can set it beside its label (table.css). */}
        <div className="dt-v">{s ? s.node : c.cell(r)}</div>
        {details}
      </td>,
    );
    if (s) i += s.cells - 1;
  }
  return out;
}

/** The folded columns of a row as label: value lines (drawn only while they are folded, table.css). */
function Details<R>({ columns, r }: { columns: Column<R>[]; r: R }) {
  return (
    <details className="dt-more">
      <summary>details</summary>
      <dl>
        {columns
          .filter((m) => !m.priority)
          .map((m) => (
            <div key={m.label}>
              <dt>{m.label}</dt>
              <dd>{m.cell(r)}</dd>
            </div>
          ))}
      </dl>
    </details>
  );
}

/**
 * A cell of a table written by hand (rows with their own structure, such as a pinned row) that takes
 * the shared layout: inside `<div className="table-wrap dt-wrap"><table className="list dt">`, with
 * `data-col="priority"` on the headers a reader must always see, a phone shows each row as a card of
 * label: value lines, as DataTable's rows.
 */
export function Td({
  label: name,
  className,
  title,
  style,
  testId,
  children,
}: {
  label: string;
  className?: string;
  title?: string;
  style?: CSSProperties;
  testId?: string;
  children: ReactNode;
}) {
  return (
    <td className={className} title={title} style={style} data-label={name} data-col="priority" data-testid={testId}>
      <div className="dt-v">{children}</div>
    </td>
  );
}
