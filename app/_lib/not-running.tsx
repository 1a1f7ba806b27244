/** Shown when a page is rendered by a Next process that is not running the observatory. */
export function NotRunning() {
  return (
    <div className="notice">
      <strong>The observatory is not running in this process.</strong>
      <p className="muted">
        Start it with <code>npm start</code> (or <code>npm run dev</code>): the custom server starts the observer, the
        database and the demo mesh, then serves these pages.
      </p>
    </div>
  );
}
