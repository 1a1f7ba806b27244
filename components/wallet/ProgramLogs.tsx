/**
 * A failure's raw program logs, closed behind "details": the sentence above already says what
 * went wrong; the logs are for whoever wants to see the program's own words.
 */
export function ProgramLogs({ logs }: { logs: readonly string[] }) {
  return (
    <details className="action-details" data-testid="action-details">
      <summary className="small muted">
        details: program logs ({logs.length} line{logs.length === 1 ? '' : 's'})
      </summary>
      <pre className="logs mono" data-testid="action-logs">
        {logs.join('\n')}
      </pre>
    </details>
  );
}
