/**
 * The README's configuration table, generated from server/config.ts (CONFIG_DOCS: every variable
 * the process reads, its default and meaning, where it is told at length). `npm run docs:config`
 * rewrites the table between the markers in README.md; `npm run docs:config -- --check` only says
 * whether it differs. scripts/config-docs.test.ts fails when the README's table is not this text.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { CONFIG_DOCS, CONFIG_GROUPS, CONFIG_VARIABLES, type ConfigVariable } from '../server/config';
import { markdownTargets, sectionAnchor } from './doc-references';

export const CONFIG_BEGIN =
  '<!-- config:begin (generated from server/config.ts by `npm run docs:config`; edit CONFIG_DOCS there) -->';
export const CONFIG_END = '<!-- config:end -->';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The link to a variable's section: `[Fair limits](docs/app.md#fair-limits)`. */
function docLink(root: string, name: ConfigVariable): string {
  const doc = CONFIG_DOCS[name].doc;
  if (!doc) return '';
  const [file, section] = doc;
  let text: string;
  try {
    text = readFileSync(join(root, file), 'utf8');
  } catch {
    throw new Error(`CONFIG_DOCS.${name}.doc: no file ${file}`);
  }
  const anchor = sectionAnchor(markdownTargets(text), section);
  if (anchor === null) throw new Error(`CONFIG_DOCS.${name}.doc: ${file} has no heading or label "${section}"`);
  return `[${section}](${file}#${anchor})`;
}

/** The generated table, markers included: one table per group, variables in CONFIG_DOCS order. */
export function configTableMarkdown(root: string = ROOT): string {
  const names = Object.keys(CONFIG_DOCS) as ConfigVariable[];
  const missing = CONFIG_VARIABLES.filter((v) => !names.includes(v));
  if (missing.length) throw new Error(`CONFIG_DOCS lacks ${missing.join(', ')}`);
  const out = [CONFIG_BEGIN];
  for (const group of CONFIG_GROUPS) {
    const rows = names.filter((n) => CONFIG_DOCS[n].group === group);
    if (rows.length === 0) continue;
    out.push('', `**${group}**`, '', '| variable | default | meaning | more |', '|---|---|---|---|');
    for (const n of rows) {
      const d = CONFIG_DOCS[n];
      out.push(`| \`${n}\` | ${cell(d.default)} | ${cell(d.meaning)} | ${docLink(root, n)} |`);
    }
  }
  out.push('', CONFIG_END);
  return out.join('\n');
}

/** The README with its table replaced by the generated one; throws when the markers are missing. */
export function withConfigTable(readme: string, table: string = configTableMarkdown()): string {
  const a = readme.indexOf(CONFIG_BEGIN);
  const b = readme.indexOf(CONFIG_END);
  if (a < 0 || b < a) throw new Error(`README.md lacks the markers ${CONFIG_BEGIN} … ${CONFIG_END}`);
  return readme.slice(0, a) + table + readme.slice(b + CONFIG_END.length);
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = join(ROOT, 'README.md');
  const before = readFileSync(path, 'utf8');
  const after = withConfigTable(before);
  if (process.argv.includes('--check')) {
    console.log(
      before === after
        ? 'README.md configuration table is up to date'
        : 'README.md configuration table differs from server/config.ts: run `npm run docs:config`',
    );
    process.exitCode = before === after ? 0 : 1;
  } else if (before === after) {
    console.log('README.md configuration table is up to date');
  } else {
    writeFileSync(path, after);
    console.log('README.md configuration table rewritten from server/config.ts');
  }
}
