/**
 * A JSON Schema (as the OpenAPI document holds it) as short TypeScript-like text for the
 * reference page: `{ id: string; next: string | null }`, `$ref`s by component name.
 */
type Schema = Record<string, unknown>;

const pad = (n: number) => '  '.repeat(n);

export function refName(ref: string): string {
  return ref.replace(/^#\/components\/schemas\//, '');
}

export function schemaText(s: unknown, depth = 0): string {
  if (!s || typeof s !== 'object') return 'unknown';
  const o = s as Schema;
  if (typeof o.$ref === 'string') return refName(o.$ref);
  const alts = (o.anyOf ?? o.oneOf) as unknown[] | undefined;
  if (Array.isArray(alts)) return alts.map((a) => schemaText(a, depth)).join(' | ');
  if (Array.isArray(o.enum)) return o.enum.map((v) => JSON.stringify(v)).join(' | ');
  if ('const' in o) return JSON.stringify(o.const);
  const type = o.type;
  if (Array.isArray(type)) return type.map((t) => schemaText({ ...o, type: t }, depth)).join(' | ');
  switch (type) {
    case 'array':
      return `${wrap(schemaText(o.items, depth))}[]`;
    case 'object': {
      const props = (o.properties ?? {}) as Record<string, unknown>;
      const req = new Set((o.required ?? []) as string[]);
      const keys = Object.keys(props);
      const extra =
        o.additionalProperties && typeof o.additionalProperties === 'object'
          ? schemaText(o.additionalProperties, depth + 1)
          : null;
      if (keys.length === 0)
        return extra ? `Record<string, ${extra}>` : o.additionalProperties === false ? '{}' : 'object';
      const lines = keys.map(
        (k) => `${pad(depth + 1)}${k}${req.has(k) ? '' : '?'}: ${schemaText(props[k], depth + 1)};${hint(props[k])}`,
      );
      return `{\n${lines.join('\n')}\n${pad(depth)}}`;
    }
    case 'integer':
    case 'number':
    case 'boolean':
    case 'null':
      return String(type);
    case 'string':
      return 'string';
    default:
      return 'unknown';
  }
}

const wrap = (t: string) => (t.includes(' | ') ? `(${t})` : t);

/** A trailing comment with a field's description or pattern, when it has one. */
function hint(s: unknown): string {
  if (!s || typeof s !== 'object') return '';
  const o = s as Schema;
  if (typeof o.description === 'string') return ` // ${o.description.split('\n')[0]}`;
  if (typeof o.pattern === 'string') return ` // ${o.pattern}`;
  return '';
}
