/**
 * Writes the listings of the documents that the code decides, each between two markers:
 *
 *   <!-- generated: queues, by scripts/generated-docs.ts -->
 *   …
 *   <!-- end: queues -->
 *
 * `modules` and `queues` in docs/architecture.md, `webhook-events` in docs/api.md, `environment`
 * in docs/configuration.md. Everything is read from the source text (no application code is
 * loaded, nothing is connected to). `npx ts-node --transpile-only scripts/generated-docs.ts`
 * rewrites the documents; `--check` only says which listing differs (test/generated-docs.spec.ts
 * does the same in the fast tier).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { WEBHOOK_EVENTS } from '../src/platform/http/webhook-events.doc';
import { WEBHOOK_TOPICS } from '../src/modules/webhooks/domain/webhook-topics';
import { moduleGraph, SHARED_AREAS } from './module-graph';

const ROOT = join(__dirname, '..');
const SRC = join(ROOT, 'src');
export const COMMAND = 'npx ts-node --transpile-only scripts/generated-docs.ts';

const read = (path: string) => readFileSync(join(ROOT, path), 'utf8');

/** The .ts files under a folder of the repository, specs left out, paths from the root. */
function sources(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.spec.ts'))
    .map((f) => join(dir, f).split('\\').join('/'))
    .sort();
}

/** The expression that starts at `from`: up to the first `,`, `)` or `;` outside brackets. */
function expressionAt(text: string, from: number): string {
  let depth = 0;
  let quote = '';
  for (let i = from; i < text.length; i++) {
    const c = text[i];
    if (quote) {
      if (c === quote && text[i - 1] !== '\\') quote = '';
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if ('([{'.includes(c)) depth++;
    else if (')]}'.includes(c)) {
      if (depth === 0) return text.slice(from, i).trim();
      depth--;
    } else if ((c === ',' || c === ';') && depth === 0) return text.slice(from, i).trim();
  }
  return text.slice(from).trim();
}

// ---------------------------------------------------------------------------------------------
// The configuration: which variable each AppConfig field reads, and what a variable defaults to.

const CONFIG_FILES = sources('src/platform/config');
const READER = /\b(str|int|bool|url|get)\(\s*'([A-Z][A-Z0-9_]+)'\s*([,)])/g;
/** A parser handed the reader `get` with the name it reads (`serviceTypeMap('X', get, …)`). */
const GET_BY = /\b\w+\(\s*'([A-Z][A-Z0-9_]+)',\s*get\b/g;
const ENV_READ = /\benv\.([A-Z][A-Z0-9_]+)\?\.trim\(\)/g;

/** `const NAME = <literal>` of the configuration's files (DEFAULT_RETRY_SCHEDULE, …). */
function configConstants(): Map<string, string> {
  const constants = new Map<string, string>();
  for (const file of CONFIG_FILES)
    for (const m of read(file).matchAll(
      /^(?:export )?const ([A-Z][A-Z0-9_]+)(?:: \w+)? = ([^;\n]+);/gm,
    ))
      constants.set(m[1], m[2].trim());
  return constants;
}

/** A literal's value as a document shows it, or null when `expression` is not one. */
function literal(expression: string, constants = configConstants()): string | null {
  const e = constants.get(expression) ?? expression;
  if (/^'[^']*'$/.test(e)) return e.slice(1, -1);
  if (e === 'true' || e === 'false') return e;
  if (/^[\d_]+(\s*\*\s*[\d_]+)*$/.test(e))
    return String(e.split('*').reduce((n, f) => n * Number(f.trim().replace(/_/g, '')), 1));
  return null;
}

/** The AppConfig field a variable fills (`searchConcurrency` → `SEARCH_CONCURRENCY`). */
export function configFields(): Map<string, string> {
  const fields = new Map<string, string>();
  for (const file of CONFIG_FILES)
    for (const m of read(file).matchAll(
      /(\w+)(?::| =)\s*(?:\w+\(\s*)?(?:str|int|bool|url)\(\s*'([A-Z][A-Z0-9_]+)'/g,
    ))
      fields.set(m[1], m[2]);
  return fields;
}

/**
 * Every variable the configuration reads (src/platform/config, the only reader of the
 * environment), with its default: a literal the code states, `unset` when the code has none, or
 * null where the code computes it (then the document's own words stand).
 */
export function environmentVariables(): Map<string, string | null> {
  const constants = configConstants();
  const seen = new Map<string, Set<string | null>>();
  const note = (name: string, value: string | null) =>
    seen.set(name, (seen.get(name) ?? new Set()).add(value));
  for (const file of CONFIG_FILES) {
    const text = read(file);
    for (const m of text.matchAll(READER)) {
      const [, reader, name, next] = m;
      const end = m.index + m[0].length;
      if (next === ',' && reader !== 'get') note(name, literal(expressionAt(text, end), constants));
      else note(name, fallbackAfter(text, end - (next === ')' ? 0 : 1), constants));
    }
    for (const m of text.matchAll(GET_BY)) note(m[1], 'unset');
    for (const m of text.matchAll(ENV_READ))
      note(m[1], fallbackAfter(text, m.index + m[0].length, constants));
  }
  const out = new Map<string, string | null>();
  for (const [name, values] of [...seen].sort(([a], [b]) => a.localeCompare(b)))
    out.set(name, values.size === 1 ? [...values][0] : null);
  return out;
}

/** After a read that answers nothing when unset: `|| x` or `?? x`, else `unset`. */
function fallbackAfter(text: string, at: number, constants: Map<string, string>): string | null {
  const rest = /^\s*(\|\||\?\?)\s*/.exec(text.slice(at));
  if (!rest) return /^\s*[?]\s/.test(text.slice(at)) ? null : 'unset';
  const value = literal(expressionAt(text, at + rest[0].length), constants);
  return value === '' ? 'unset' : value;
}

/** A number of milliseconds as people say it, when it is a whole number of s, min or h. */
function duration(ms: number): string {
  for (const [unit, size] of [
    ['h', 3_600_000],
    ['min', 60_000],
    ['s', 1_000],
  ] as const)
    if (ms >= size && ms % size === 0) return `${ms / size} ${unit}`;
  return `${ms} ms`;
}

/** One default as the table shows it. */
function shownDefault(name: string, value: string): string {
  if (value === 'unset') return 'unset';
  const ms = name.endsWith('_MS') && /^\d+$/.test(value) && Number(value) >= 60_000;
  return ms ? `\`${value}\` (${duration(Number(value))})` : `\`${value}\``;
}

const TABLE_ROW = /^\|(.*)\|\s*$/;

/** The cells of a Markdown table row (no `|` inside code in these tables). */
const cells = (line: string) =>
  TABLE_ROW.exec(line)![1]
    .split('|')
    .map((c) => c.trim());

/**
 * docs/configuration.md's table of variables: one row per variable (or per group of variables
 * the document describes together), in the document's order, each default from the code where
 * the code states one, each meaning as the document words it. A variable the code reads and the
 * table lacks is added with no meaning, and the generator refuses until it has one.
 */
export function environmentTable(current: string): string {
  const variables = environmentVariables();
  const rows = current
    .split('\n')
    .filter((l) => TABLE_ROW.test(l) && !/^\|\s*(variable|-)/.test(l))
    .map(cells)
    .map(([names, shown, meaning]) => ({
      names: names.split(',').map((n) => n.trim().replace(/`/g, '')),
      shown,
      meaning,
    }))
    .map((row) => ({ ...row, names: row.names.filter((n) => variables.has(n)) }))
    .filter((row) => row.names.length > 0);
  const listed = new Set(rows.flatMap((r) => r.names));
  for (const name of variables.keys())
    if (!listed.has(name)) rows.push({ names: [name], shown: '', meaning: '' });
  const lines = rows.map(({ names, shown, meaning }) => {
    const values = names.map((n) => variables.get(n));
    const fromCode = values.every((v): v is string => typeof v === 'string')
      ? [...new Set(names.map((n, i) => shownDefault(n, values[i])))].join(', ')
      : shown;
    return `| ${names.map((n) => `\`${n}\``).join(', ')} | ${fromCode} | ${meaning} |`;
  });
  return ['| variable | default | meaning |', '|---|---|---|', ...lines].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The queues: each `*.queue.ts` definition, its worker (`@QueueWorker`), its retry policy.

interface QueueRow {
  name: string;
  definition: string;
  file: string;
  spec: Record<string, string>;
  worker: string;
  concurrency: string;
  retries: string[];
}

/** `config.x` as the variable it comes from, and milliseconds as people say them. */
function inWords(expression: string, fields = configFields()): string {
  return expression
    .replace(/\b(?:this\.)?config(?:\.claims)?\.(\w+)/g, (_, f: string) => fields.get(f) ?? f)
    .replace(/\b\d[\d_]*\b/g, (n) => {
      const ms = Number(n.replace(/_/g, ''));
      return ms >= 1_000 && /_/.test(n) ? duration(ms) : String(ms);
    });
}

/** The key: value pairs of the object literal a definition gives `dbQueueOf` (`job`, `table`, …). */
function specOf(text: string): Record<string, string> {
  const call = text.indexOf('dbQueueOf(');
  const start = text.indexOf('{', call);
  if (call === -1 || start === -1)
    throw new Error('a queue definition without `dbQueueOf(…, {…})`');
  const body = text.slice(start + 1);
  const spec: Record<string, string> = {};
  for (const m of body.matchAll(/^ {2}(\w+): /gm))
    spec[m[1]] = expressionAt(body, m.index + m[0].length);
  return spec;
}

/** A policy's object literal in words, `value` resolving each of its expressions. */
function policyWords(body: string, value: (expression: string) => string): string {
  const field = (key: string) =>
    value(new RegExp(`${key}:\\s*([^,\\n}]+)`).exec(body)?.[1].trim() ?? '');
  return /delaysMs/.test(body)
    ? `${field('delaysMs').replace(/\.map\(.*$/, '')} apart`
    : `${field('doublingFromMs')} × 1, 2, 4, …; ${field('maxAttempts')} attempts`;
}

/**
 * The retry policies a module defines (`const x: RetryPolicy = …`, a function answering one, or
 * `… satisfies RetryPolicy`), by name, each in words: `SEARCH_RETRY_BASE_MS × 1, 2, 4, …; 4
 * attempts`.
 */
function retryPolicies(module: string): Map<string, string> {
  const files = sources(module);
  const all = files.map((f) => read(f)).join('\n');
  const policies = new Map<string, string>();
  for (const file of files) {
    const text = read(file);
    const defs =
      /export const (\w+)(?::\s*RetryPolicy)?\s*=\s*(?:\(([^)]*)\)[^=]*=>\s*)?\(?\{([^}]*)\}\)?(?:\s*satisfies RetryPolicy)?/g;
    for (const m of text.matchAll(defs)) {
      const [whole, name, params, body] = m;
      if (!/RetryPolicy/.test(whole) || !/doublingFromMs|delaysMs/.test(body)) continue;
      // A parameter stands for what the policy is called with (`searchRetries(config.x)`).
      const param = params?.split(':')[0].trim();
      const arg =
        param && !param.startsWith('{')
          ? new RegExp(`\\b${name}\\(([^)]*)\\)`).exec(all.replace(whole, ''))?.[1]
          : undefined;
      const words = policyWords(body, (raw) => {
        const local = new RegExp(`const ${raw} = ([^;]+);`).exec(text)?.[1] ?? raw;
        return inWords(param && arg && local === param ? arg : local);
      });
      const where = relative('src/modules', file).split('\\').join('/');
      policies.set(name, `\`${name}\` (\`${where}\`): ${words}`);
    }
  }
  return policies;
}

/** The queue's retry policy in words: its definition's own, else the ones its module defines. */
function retriesOf(spec: Record<string, string>, module: string): string[] {
  const policies = retryPolicies(module);
  const own = Object.entries(spec).find(([key]) => /^retr/i.test(key))?.[1];
  if (own === undefined) return [...policies.values()];
  const named = policies.get(/^(\w+)/.exec(own)?.[1] ?? '');
  if (named) return [named];
  return [own.startsWith('{') ? policyWords(own, inWords) : inWords(own)];
}

export function queueRows(): QueueRow[] {
  const files = sources('src/modules');
  const workers = files.flatMap((file) => {
    const text = read(file);
    const m =
      /@QueueWorker\((\w+)(?:,\s*\{\s*concurrency:\s*([^}]+?)\s*\})?\)[\s\S]*?export class (\w+)/.exec(
        text,
      );
    return m ? [{ constant: m[1], concurrency: m[2], worker: m[3], file }] : [];
  });
  return files
    .filter((f) => f.endsWith('.queue.ts'))
    .map((file) => {
      const text = read(file);
      const [, constant, name] = /export const (\w+) = '([^']+)'/.exec(text)!;
      const definition = /export class (\w+) extends dbQueueOf\(/.exec(text)![1];
      const spec = specOf(text);
      const module = file.split('/').slice(0, 3).join('/');
      const worker = workers.find((w) => w.constant === constant && w.file.startsWith(module));
      // `(config) => config.x`, `() => 5` or `config.x`: what it answers, `config.` for its parameter.
      const given = spec.concurrency ?? worker?.concurrency ?? '1';
      const [, param = '', answer = given] = /^\(?(\w*)\)?\s*=>\s*([\s\S]+)$/.exec(given) ?? [];
      return {
        name,
        definition,
        file: relative('src/modules', file),
        spec,
        worker: worker?.worker ?? '(none)',
        concurrency: inWords(
          param ? answer.replace(new RegExp(`\\b${param}\\.`, 'g'), 'config.') : answer,
        ),
        retries: retriesOf(spec, module),
      };
    })
    .sort((a, b) => a.name.localeCompare(b.name));
}

export function queueTable(): string {
  const rows = queueRows().map((q) =>
    [
      `\`${q.name}\``,
      `\`${q.definition}\`, \`${q.file}\``,
      `\`${q.spec.table.replace(/'/g, '')}\` where \`${q.spec.pending.replace(/^[`']|[`']$/g, '')}\``,
      `\`${q.spec.dueColumn.replace(/'/g, '')}\``,
      inWords(q.spec.leaseMs),
      `\`${q.worker}\``,
      q.concurrency,
      q.retries.join('; ') || 'none',
    ].join(' | '),
  );
  return [
    '| queue (Bull name) | definition | rows | due column | lease | worker | runs at once per process | retry policy |',
    '|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The module graph: what each feature imports of the others, then what shared code imports.

export function moduleGraphBlock(): string {
  const features = new Set(readdirSync(join(SRC, 'modules')));
  const out = new Map<string, string[]>();
  for (const e of moduleGraph().values()) {
    const shown =
      (features.has(e.from) && features.has(e.to)) || (SHARED_AREAS.has(e.from) && e.from !== e.to);
    if (shown) out.set(e.from, [...(out.get(e.from) ?? []), e.to].sort());
  }
  const lines = (keep: (area: string) => boolean) =>
    [...out.keys()]
      .filter(keep)
      .sort()
      .map((from) => `${from} -> ${out.get(from)!.join(', ')}`)
      .join('\n');
  const shared = lines((a) => SHARED_AREAS.has(a));
  return ['```', lines((a) => features.has(a)), '', shared, '```'].join('\n');
}

// ---------------------------------------------------------------------------------------------
// The webhook events, by topic, with the read scope a topic needs (docs/api.md, Webhooks).

const SCOPES_FILE = 'src/modules/webhooks/domain/webhook-scopes.ts';

/** `topicOfEvent`'s rules, read from its source: each `if (event.<test>('<x>')) return '<t>'`. */
export function topicOf(event: string): string {
  const text = read(SCOPES_FILE);
  const body = /export function topicOfEvent[\s\S]*?\n\}/.exec(text)![0];
  for (const m of body.matchAll(
    /if \(event\.(startsWith|includes)\('([^']+)'\)\) return '(\w+)';/g,
  ))
    if (m[1] === 'startsWith' ? event.startsWith(m[2]) : event.includes(m[2])) return m[3];
  return /\n {2}return '(\w+)';\n\}$/.exec(body)![1];
}

/** TOPIC_READ_SCOPES, read from its source. */
function topicScopes(): Map<string, string[]> {
  const text = read(SCOPES_FILE);
  const block = /TOPIC_READ_SCOPES[^=]*= \{([\s\S]*?)\n\};/.exec(text)![1];
  return new Map(
    [...block.matchAll(/^\s+([\w-]+): \[([^\]]*)\]/gm)].map((m) => [
      m[1],
      [...m[2].matchAll(/'([^']+)'/g)].map((s) => s[1]),
    ]),
  );
}

export function webhookEventTable(): string {
  const scopes = topicScopes();
  const rows = WEBHOOK_TOPICS.map((topic) => {
    const events = WEBHOOK_EVENTS.filter((e) => topicOf(e.type) === topic);
    const listed = events
      .map((e) => `\`${e.type}\`: ${e.summary[0].toLowerCase()}${e.summary.slice(1)}`)
      .join('; ');
    const body = /`GET ([^`]+)`/.exec(events[0]?.description ?? '')?.[1];
    const scope = (scopes.get(topic) ?? []).map((s) => `\`${s}\``).join(' and ');
    return `| \`${topic}\` | ${listed} | ${body ? `\`GET ${body}\`` : ''} | ${scope} |`;
  });
  return [
    '| topic | event types (`X-Event-Type`) | body: the bytes of | read scope |',
    '|---|---|---|---|',
    ...rows,
  ].join('\n');
}

// ---------------------------------------------------------------------------------------------

export interface Listing {
  file: string;
  name: string;
  render(current: string): string;
}

export const LISTINGS: Listing[] = [
  { file: 'docs/architecture.md', name: 'modules', render: moduleGraphBlock },
  { file: 'docs/architecture.md', name: 'queues', render: queueTable },
  { file: 'docs/api.md', name: 'webhook-events', render: webhookEventTable },
  { file: 'docs/configuration.md', name: 'environment', render: environmentTable },
];

const marker = (name: string) =>
  new RegExp(
    `(<!-- generated: ${name}, by scripts/generated-docs.ts -->\\n)([\\s\\S]*?)(<!-- end: ${name} -->)`,
  );

/** The text between a listing's markers in `doc`; throws when the markers are missing. */
export function committed(doc: string, name: string): string {
  const m = marker(name).exec(doc);
  if (!m) throw new Error(`no markers for the listing ${name}`);
  return m[2].replace(/\n$/, '');
}

/** `doc` with the listing regenerated from the code. */
export function regenerate(doc: string, listing: Listing): string {
  const body = listing.render(committed(doc, listing.name));
  return doc.replace(
    marker(listing.name),
    (_, open: string, _old: string, end: string) => `${open}${body}\n${end}`,
  );
}

/** Which listings differ from the code (`file: name`), and what is missing (meanings). */
export function problems(docs: (file: string) => string = read): string[] {
  const out: string[] = [];
  for (const listing of LISTINGS) {
    const doc = docs(listing.file);
    const body = listing.render(committed(doc, listing.name));
    if (body !== committed(doc, listing.name)) out.push(`${listing.file}: ${listing.name}`);
    for (const line of body.split('\n'))
      if (/\| {2}\|$/.test(line))
        out.push(`${listing.file}: ${line.split('|')[1].trim()} needs its meaning`);
  }
  return out;
}

function main(): void {
  if (process.argv.includes('--check')) {
    const found = problems();
    for (const p of found) process.stderr.write(`${p} differs from the code: run ${COMMAND}\n`);
    if (found.length > 0) process.exit(1);
    return;
  }
  for (const file of [...new Set(LISTINGS.map((l) => l.file))]) {
    let doc = read(file);
    for (const listing of LISTINGS.filter((l) => l.file === file)) doc = regenerate(doc, listing);
    writeFileSync(join(ROOT, file), doc);
  }
  const missing = problems().filter((p) => p.endsWith('needs its meaning'));
  for (const p of missing) process.stderr.write(`${p}: describe it in the table\n`);
  if (missing.length > 0) process.exit(1);
}

if (require.main === module) main();
