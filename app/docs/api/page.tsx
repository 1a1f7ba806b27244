/**
 * /docs/api: the API reference, rendered here from the OpenAPI document (/api/openapi.json,
 * lib/api/openapi.ts) with plain React: nothing fetched from elsewhere, same theme as the app.
 */
import type { Metadata } from 'next';
import { openApiDocument } from '../../../lib/api/openapi';
import { schemaText } from './schema-text';

export const dynamic = 'force-dynamic';
export const metadata: Metadata = { title: 'API reference' };

type Obj = Record<string, unknown>;
interface Param {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: unknown;
}

const anchor = (method: string, path: string) => `${method}-${path.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}`;

export default function ApiDocsPage() {
  const doc = openApiDocument() as unknown as {
    info: { title: string; version: string; description?: string };
    paths: Record<string, Record<string, Obj>>;
    components?: { schemas?: Record<string, unknown> };
  };
  const ops = Object.entries(doc.paths).flatMap(([path, item]) =>
    Object.entries(item).map(([method, op]) => ({ path, method, op })),
  );
  const schemas = Object.entries(doc.components?.schemas ?? {});
  return (
    <>
      <header className="page-head">
        <div>
          <h1>{doc.info.title}</h1>
          <p className="muted">{doc.info.description}</p>
        </div>
        <a className="status" href="/api/openapi.json">
          OpenAPI 3.1 JSON
        </a>
      </header>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Routes</h2>
        <ul className="api-toc">
          {ops.map(({ path, method, op }) => (
            <li key={anchor(method, path)}>
              <a href={`#${anchor(method, path)}`} className="mono">
                {method.toUpperCase()} {path}
              </a>{' '}
              <span className="muted small">{String(op.summary ?? '')}</span>
            </li>
          ))}
        </ul>
      </section>
      <section className="card" style={{ marginBottom: 16 }}>
        <h2>Operations</h2>
        {ops.map(({ path, method, op }) => {
          const params = (op.parameters ?? []) as Param[];
          const responses = Object.entries((op.responses ?? {}) as Record<string, Obj>);
          const body = (op.requestBody as Obj | undefined)?.content as Record<string, Obj> | undefined;
          return (
            <details
              key={anchor(method, path)}
              id={anchor(method, path)}
              className="api-op"
              data-op={`${method} ${path}`}
              open={method === 'get' && path === '/api/search'}
            >
              <summary>
                <span className={`api-method ${method}`}>{method.toUpperCase()}</span>
                <span className="mono">{path}</span>
                <span className="muted">{String(op.summary ?? '')}</span>
              </summary>
              {typeof op.description === 'string' && <p>{op.description}</p>}
              {params.length > 0 && (
                <table className="api-params small">
                  <thead>
                    <tr>
                      <th>parameter</th>
                      <th>in</th>
                      <th>type</th>
                      <th>about</th>
                    </tr>
                  </thead>
                  <tbody>
                    {params.map((p) => (
                      <tr key={`${p.in}:${p.name}`}>
                        <td className="mono">
                          {p.name}
                          {p.required ? ' *' : ''}
                        </td>
                        <td className="muted">{p.in}</td>
                        <td className="mono">{schemaText(p.schema)}</td>
                        <td>{p.description ?? ((p.schema as Obj | undefined)?.description as string) ?? ''}</td>
                      </tr>
                    ))}
                  </tbody>
                </table>
              )}
              {body &&
                Object.keys(body).map((type) => (
                  <p key={type} className="small">
                    Request body <span className="mono">{type}</span>:{' '}
                    {String((op.requestBody as Obj).description ?? '')}
                  </p>
                ))}
              {responses.map(([status, r]) => {
                const content = r.content as Record<string, Obj> | undefined;
                const schema = content ? Object.values(content)[0]?.schema : undefined;
                const text = schema ? schemaText(schema) : null;
                return (
                  <div key={status} className="small" style={{ marginTop: 8 }}>
                    <span className={`badge ${Number(status) < 400 ? 't-accept' : 't-reject'}`}>{status}</span>{' '}
                    {String(r.description ?? '')}
                    {text && Number(status) < 400 && <pre className="api-schema">{text}</pre>}
                  </div>
                );
              })}
            </details>
          );
        })}
      </section>
      <section className="card">
        <h2>Schemas</h2>
        {schemas.map(([name, s]) => (
          <div key={name} id={`schema-${name}`} style={{ marginBottom: 12 }}>
            <div className="mono">{name}</div>
            <pre className="api-schema">{schemaText(s)}</pre>
          </div>
        ))}
      </section>
    </>
  );
}
