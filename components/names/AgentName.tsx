'use client';
/**
 * One way to show an agent everywhere: its name (SATI name, else the derived label) linking to its
 * page, its base58 id shortened beside it, and a copy button copying that base58 id. Names come
 * from the layout (SiteProvider, the stored SATI names) and from the caller when it knows
 * better (a fresher snapshot).
 */
import Link from 'next/link';
import { CopyId } from '../CopyId';
import { base58 } from '../format';
import { useSite } from '../site';
import { agentDisplayName, shortBase58 } from './label';

/** The display name of an agent (hex id), from the names the page was rendered with. */
export function useAgentName(hex: string, name?: string | null): string {
  const { names } = useSite();
  return agentDisplayName(hex, name ?? names[hex]);
}

export function AgentName({
  id,
  name,
  copy = true,
  link = true,
  idOnly = false,
}: {
  id: string;
  name?: string | null;
  copy?: boolean;
  link?: boolean;
  idOnly?: boolean;
}) {
  const shown = useAgentName(id, name);
  const b58 = base58(id);
  const body = (
    <>
      {idOnly ? null : <span className="agent-name">{shown}</span>}
      <span className="agent-short mono">{shortBase58(id)}</span>
    </>
  );
  return (
    <span className="agent-id" data-agent={id} data-ident={copy ? 'agent id' : undefined}>
      {link ? (
        <Link href={`/agents/${b58}`} title={`${shown}\n${b58}`}>
          {body}
        </Link>
      ) : (
        <span title={b58}>{body}</span>
      )}
      {copy ? <CopyId value={b58} /> : null}
    </span>
  );
}
