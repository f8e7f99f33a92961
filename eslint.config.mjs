// @ts-check
import eslint from '@eslint/js';
import tseslint from 'typescript-eslint';
import prettier from 'eslint-config-prettier';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Boundaries (issue 32). Feature code (services, controllers, processors) reaches the database
 * only through repositories (`*.repository.ts`) and `Database.transaction`; entities and module
 * files declare tables; src/platform/db and src/platform/jobs are the data layer itself.
 */
const DATA_LAYER = [
  'src/**/*.repository.ts',
  'src/**/*.entity.ts',
  'src/**/*.module.ts',
  'src/**/*.spec.ts',
  'src/platform/db/**',
  // The composition root lists every module's entity for TypeORM (the app, the CLI, ormconfig).
  'src/entities.ts',
  // The demo seed: one transaction under an advisory lock, so one of many processes seeds.
  'src/seed/**',
  // DbQueue is the repository of every queue's lease columns; lease-statements.ts and
  // lease-recovery.ts hold its statements and sweeps, lane-feed.ts its reads without Redis.
  'src/platform/jobs/db-queue.ts',
  'src/platform/jobs/lane-feed.ts',
  'src/platform/jobs/lease-recovery.ts',
  'src/platform/jobs/lease-statements.ts',
  // The keyset paginator extends a repository's query builder.
  'src/platform/http/pagination/**',
  // The HTTP error filter maps the driver's QueryFailedError (unique violations) to 409/400.
  'src/platform/http/http-exception.filter.ts',
  // The CLI's composition root opens the data source like AppModule does.
  'src/cli.ts',
];
const REPOSITORY_ONLY =
  'Only repositories (*.repository.ts) and src/platform/db use this; inject a repository, or Database for a transaction.';
const boundaries = {
  files: ['src/**/*.ts'],
  ignores: DATA_LAYER,
  rules: {
    '@typescript-eslint/no-restricted-imports': [
      'error',
      {
        paths: [
          { name: 'typeorm', message: REPOSITORY_ONLY },
          { name: '@nestjs/typeorm', message: REPOSITORY_ONLY },
          { name: 'pg', message: REPOSITORY_ONLY },
          { name: '@/platform/db/pg-pool', message: REPOSITORY_ONLY },
          { name: '@/platform/db/data-source', message: REPOSITORY_ONLY },
          {
            name: '@/platform/db/database',
            importNames: ['managerOf', 'queryableOf', 'transactionOf', 'dataSourceOf'],
            message: REPOSITORY_ONLY,
          },
        ],
        patterns: [
          {
            // Another module's table is that module's business: use its service or its types.
            group: ['@/modules/*/**/*.entity'],
            allowTypeImports: true,
            message:
              "Import another module's entity as a type only; its rows are that module's repository's.",
          },
        ],
      },
    ],
  },
};

/**
 * One door per module: code in src/modules/<name> imports another module only through its
 * index.ts ('@/modules/<other>'); the doors export the module, its services, public types and
 * events (docs/architecture.md, Module graph). The module graph has no cycle (npm run graph
 * --check, part of npm run lint), so loading a door never meets a half-loaded one.
 */
const MODULES = readdirSync(new URL('./src/modules', import.meta.url), { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);
const doors = MODULES.map((name) => ({
  files: [`src/modules/${name}/**/*.ts`],
  ignores: ['src/**/*.spec.ts'],
  rules: {
    'no-restricted-imports': [
      'error',
      {
        patterns: [
          {
            group: ['@/modules/*/**', `!@/modules/${name}/**`],
            message: "Import another module through its door: '@/modules/<name>' (its index.ts).",
          },
        ],
      },
    ],
  },
}));

/**
 * One owner per table (issue 42; docs/architecture.md, Data access): each table belongs to the
 * module whose entity declares it (`@Entity('name')` in src/modules/<m>/**\/*.entity.ts) or, for
 * the tables without an entity, to the module listed in TABLES_WITHOUT_ENTITY. SQL text in
 * src/modules/<m> names only <m>'s tables after FROM, JOIN, UPDATE, INTO, DELETE FROM or TABLE;
 * src/platform and src/lib name none of the modules' tables. Another module's table is reached
 * through its owner's door: a service, a port, or a typed SQL piece its repository hands out.
 */
const TABLES_WITHOUT_ENTITY = {
  account_insurers: 'insurers',
  sandbox_searches: 'insurers',
  claim_report_parts: 'claims',
  claim_report_polls: 'claims',
  unmatched_remittance_items: 'claims',
  insurer_exchanges: 'eligibility',
  iframe_tokens: 'iframe-session',
  patient_eligibility_links: 'patients',
  // The queue's process registry (src/platform/jobs, ProcessRegistry): shared code's own table.
  service_processes: 'platform',
};
const modulesDir = new URL('./src/modules/', import.meta.url);
/** @type {Record<string, string>} table -> owner module (or 'platform') */
const TABLE_OWNERS = { ...TABLES_WITHOUT_ENTITY };
for (const file of readdirSync(modulesDir, { recursive: true, encoding: 'utf8' })) {
  if (!file.endsWith('.entity.ts')) continue;
  const owner = file.split(/[\\/]/)[0];
  const text = readFileSync(new URL(file, modulesDir), 'utf8');
  for (const [, table] of text.matchAll(/@Entity\(\s*['"]([a-z0-9_]+)['"]/g)) {
    if (TABLE_OWNERS[table] && TABLE_OWNERS[table] !== owner)
      throw new Error(`Table ${table} has two owners: ${TABLE_OWNERS[table]} and ${owner}`);
    TABLE_OWNERS[table] = owner;
  }
}
const FOREIGN_TABLE = "Another module's table: ask its owner through its door";
/** The rule behind `owners`: SQL text naming one of `options.tables` after a table keyword. */
const tableOwnerRule = {
  meta: {
    type: 'problem',
    schema: [{ type: 'object', properties: { tables: { type: 'array' } } }],
    messages: { foreign: `${FOREIGN_TABLE} ({{table}} belongs to {{owner}}).` },
  },
  create(context) {
    /** @type {string[]} */
    const tables = context.options[0]?.tables ?? [];
    if (tables.length === 0) return {};
    const pattern = new RegExp(
      `\\b(?:from|join|update|into|table)\\s+"?(${tables.join('|')})\\b`,
      'gi',
    );
    const check = (node, text) => {
      for (const [, table] of String(text).matchAll(pattern)) {
        const name = table.toLowerCase();
        context.report({
          node,
          messageId: 'foreign',
          data: { table: name, owner: TABLE_OWNERS[name] },
        });
      }
    };
    return {
      Literal: (node) => typeof node.value === 'string' && check(node, node.value),
      TemplateElement: (node) => check(node, node.value.raw),
    };
  },
};
const tablesPlugin = { rules: { owner: tableOwnerRule } };
const SQL_EXEMPT = ['src/**/*.spec.ts', 'src/platform/db/migrations/**'];
const tablesNotOwnedBy = (owner) =>
  Object.keys(TABLE_OWNERS).filter((t) => TABLE_OWNERS[t] !== owner);
const owners = [
  ...readdirSync(modulesDir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => ({
      files: [`src/modules/${d.name}/**/*.ts`],
      tables: tablesNotOwnedBy(d.name),
    })),
  // Shared code names no feature table; the composition root (src/seed, src/cli) may.
  { files: ['src/platform/**/*.ts', 'src/lib/**/*.ts'], tables: tablesNotOwnedBy('platform') },
].map(({ files, tables }) => ({
  files,
  ignores: SQL_EXEMPT,
  plugins: { tables: tablesPlugin },
  rules: { 'tables/owner': ['error', { tables }] },
}));

/** Lease columns are DbQueue's, in every file that is not the queue's own definition. */
const leaseColumns = {
  files: ['src/**/*.ts'],
  ignores: [
    'src/platform/jobs/**',
    'src/**/*.queue.ts',
    'src/**/*.entity.ts',
    'src/**/*.spec.ts',
    'src/platform/db/migrations/**',
  ],
  rules: {
    // The queue's lease columns are DbQueue's (src/platform/jobs): use queue.sql, setDue, schedule.
    'no-restricted-syntax': [
      'error',
      {
        selector:
          'TemplateElement[value.raw=/\\b(lease_job|lease_owner|job_due_at|next_attempt_at|attempt_count)\\b/]',
        message:
          "Lease columns belong to DbQueue: use the queue's sql fragments, setDue or schedule.",
      },
      {
        selector:
          'Literal[value=/\\b(lease_job|lease_owner|job_due_at|next_attempt_at|attempt_count)\\b/]',
        message:
          "Lease columns belong to DbQueue: use the queue's sql fragments, setDue or schedule.",
      },
    ],
  },
};

/**
 * One SQL idiom (docs/architecture.md, Data access): a repository writes its statements with the
 * tag of src/platform/db/sql.ts, whose fragments carry their values, and TypeORM's entity API
 * only where it is plain CRUD. So in the folders on the tag: no query builder, no
 * `getRepository`, no `.query(…)` given SQL text, and no `$1`-style parameter in SQL text (a
 * fragment numbers its values when it is compiled). src/platform/db is the tag itself.
 */
const SQL_TEXT = /\b(select|insert|update|delete|where|values|from|set|returning)\b/i;
const sqlIdiomRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      builder: 'Write the statement with sql`…` (src/platform/db/sql.ts), not a query builder.',
      repository:
        'Write the statement with sql`…` (src/platform/db/sql.ts), not getRepository; a plain CRUD repository injects its TypeORM repository.',
      text: 'Run sql`…` with query/queryOne/execute (src/platform/db/sql.ts), not .query(text).',
      numbered:
        'No $n in SQL text: place the value in sql`…` (src/platform/db/sql.ts), which numbers it.',
    },
  },
  create(context) {
    const isText = (node) =>
      (node?.type === 'Literal' && typeof node.value === 'string') ||
      node?.type === 'TemplateLiteral' ||
      (node?.type === 'BinaryExpression' && (isText(node.left) || isText(node.right)));
    const numbered = (node, text) => {
      if (/\$\d+\b/.test(text) && SQL_TEXT.test(text))
        context.report({ node, messageId: 'numbered' });
    };
    const property = (node) =>
      node.callee.type === 'MemberExpression' && node.callee.property.type === 'Identifier'
        ? node.callee.property.name
        : null;
    return {
      CallExpression(node) {
        const name = property(node);
        if (name === 'createQueryBuilder') context.report({ node, messageId: 'builder' });
        if (name === 'getRepository') context.report({ node, messageId: 'repository' });
        if (name === 'query' && isText(node.arguments[0]))
          context.report({ node, messageId: 'text' });
      },
      Literal: (node) => typeof node.value === 'string' && numbered(node, node.value),
      TemplateLiteral: (node) => numbered(node, node.quasis.map((q) => q.value.raw).join(' ')),
    };
  },
};
/** The folders on the SQL tag: every module, and the keyset paginator. */
const SQL_TAG_FOLDERS = ['src/modules/**/*.ts', 'src/platform/http/pagination/**/*.ts'];
const sqlIdiom = {
  files: SQL_TAG_FOLDERS,
  ignores: SQL_EXEMPT,
  plugins: { sql: { rules: { 'one-idiom': sqlIdiomRule } } },
  rules: { 'sql/one-idiom': 'error' },
};

/**
 * The queue idiom and its neighbours (docs/architecture.md, The queue idiom; Shared idioms):
 * - `bull`: Bull's jobs are added by DbQueue alone (`dispatch`, `enqueue`, `schedule`), and a Bull
 *   queue is reached through its DbQueue (`dbQueueOf`), never injected;
 * - `job-id`: job and run ids come from src/platform/jobs/job-id.ts, never built by hand;
 * - `declared`: a queue's concurrency and retries come from the validated config, never a number
 *   in the code (src/platform/config/queues.ts and its neighbours hold the defaults);
 * - `redis`: Redis clients are the Redis module's (src/modules/redis): `ioredis` as a type only;
 * - `after-commit`: work after a commit is handed off by its owner in the transaction
 *   (`tx.afterCommit`, in the owner's `…InTx(tx, …)`), never started by a caller once
 *   `transaction()` has answered.
 */
const STARTS_WORK = new Set([
  'start',
  'deliver',
  'dispatch',
  'dispatchAll',
  'enqueue',
  'enqueueAll',
  'submitRun',
]);
const nameOf = (node) =>
  node?.type === 'Identifier'
    ? node.name
    : node?.type === 'MemberExpression'
      ? nameOf(node.property)
      : null;
/** Every node under `node` (its own subtree), depth first. */
function* subtree(node) {
  if (!node || typeof node.type !== 'string') return;
  yield node;
  for (const [key, value] of Object.entries(node)) {
    if (key === 'parent') continue;
    for (const child of Array.isArray(value) ? value : [value])
      if (child && typeof child.type === 'string') yield* subtree(child);
  }
}
const isCallOf = (node, names) =>
  node.type === 'CallExpression' &&
  node.callee.type === 'MemberExpression' &&
  names.has(nameOf(node.callee.property));
const rule = (messages, create) => ({ meta: { type: 'problem', schema: [], messages }, create });
const queueRules = {
  bull: rule(
    {
      add: "Bull jobs are DbQueue's: dispatch, enqueue or schedule the row (src/platform/jobs).",
      inject: 'A Bull queue is reached through its DbQueue (dbQueueOf), not injected.',
    },
    (context) => ({
      CallExpression(node) {
        const callee = node.callee;
        if (callee.type !== 'MemberExpression' || nameOf(callee.object) !== 'queue') return;
        if (['add', 'addBulk', 'process'].includes(nameOf(callee.property)))
          context.report({ node, messageId: 'add' });
      },
      ImportDeclaration(node) {
        if (node.source.value !== '@nestjs/bull') return;
        for (const s of node.specifiers)
          if (
            s.type === 'ImportSpecifier' &&
            ['InjectQueue', 'getQueueToken'].includes(s.imported.name)
          )
            context.report({ node: s, messageId: 'inject' });
      },
    }),
  ),
  'job-id': rule(
    {
      hand: 'Make job and run ids with src/platform/jobs/job-id.ts (jobId, laneRun, firstAttemptRun).',
    },
    (context) => {
      /** `<job>:<id>:<tag>`, `<job>:l<lane>.<n>` or `first:<uuid>` put together in place. */
      const shaped = (t) => {
        const raw = t.quasis.map((q) => q.value.raw);
        return raw[0] === 'first:' || raw.slice(1).some((q) => /^:(?:[adrtwq]\d*|l)$/.test(q));
      };
      return {
        TemplateLiteral(node) {
          if (shaped(node)) context.report({ node, messageId: 'hand' });
        },
        Property(node) {
          const v = node.value;
          const made =
            v.type === 'BinaryExpression' || (v.type === 'TemplateLiteral' && !shaped(v));
          if (nameOf(node.key) === 'jobId' && made) context.report({ node, messageId: 'hand' });
        },
      };
    },
  ),
  declared: rule(
    {
      number:
        "A queue's {{what}} comes from the validated config (src/platform/config), not a number.",
    },
    (context) => {
      const numeric = (v) =>
        (v.type === 'Literal' && typeof v.value === 'number') ||
        (v.type === 'ArrowFunctionExpression' && numeric(v.body)) ||
        (v.type === 'ArrayExpression' && v.elements.some((e) => e && numeric(e)));
      return {
        Property(node) {
          const key = nameOf(node.key);
          const what = key === 'concurrency' ? 'concurrency' : 'retry policy';
          if (
            ['concurrency', 'doublingFromMs', 'maxAttempts', 'delaysMs'].includes(key) &&
            numeric(node.value)
          )
            context.report({ node, messageId: 'number', data: { what } });
        },
      };
    },
  ),
  redis: rule(
    {
      client:
        "Redis clients are the Redis module's (src/modules/redis): inject one; import ioredis as a type only.",
    },
    (context) => ({
      ImportDeclaration(node) {
        if (node.source.value !== 'ioredis' || node.importKind === 'type') return;
        if (node.specifiers.some((s) => s.importKind !== 'type'))
          context.report({ node, messageId: 'client' });
      },
      NewExpression(node) {
        if (['Redis', 'IORedis', 'Cluster'].includes(nameOf(node.callee)))
          context.report({ node, messageId: 'client' });
      },
    }),
  ),
  'after-commit': rule(
    {
      after:
        "Work after a commit is its owner's to hand off, in the transaction (tx.afterCommit in the owner's …InTx method), not the caller's once transaction() answered.",
    },
    (context) => {
      const commits = (statement) =>
        [...subtree(statement)].some(
          (n) =>
            (n.type === 'AwaitExpression' && isCallOf(n.argument, new Set(['transaction']))) ||
            (isCallOf(n, new Set(['then'])) && isCallOf(n.callee.object, new Set(['transaction']))),
        );
      const check = (statements) => {
        const first = statements.findIndex(commits);
        if (first < 0) return;
        for (const [i, statement] of statements.entries()) {
          if (i < first) continue;
          for (const n of subtree(statement)) {
            const thenOfCommit =
              i === first &&
              isCallOf(n, new Set(['then'])) &&
              isCallOf(n.callee.object, new Set(['transaction']));
            const later = i > first && isCallOf(n, STARTS_WORK);
            if (thenOfCommit || later) context.report({ node: n, messageId: 'after' });
          }
        }
      };
      return {
        BlockStatement: (node) => check(node.body),
        CallExpression(node) {
          if (node.callee.type === 'Identifier' && node.callee.name === 'afterCommit')
            context.report({ node, messageId: 'after' });
        },
      };
    },
  ),
};
const queuesPlugin = { rules: queueRules };
const SPECS = ['src/**/*.spec.ts'];
const queueIdiom = [
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/jobs/**', ...SPECS],
    rules: { 'queues/bull': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/jobs/job-id.ts', ...SPECS],
    rules: { 'queues/job-id': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/config/**', 'src/platform/kernel/retry.ts', ...SPECS],
    rules: { 'queues/declared': 'error' },
  },
  { files: ['src/**/*.ts'], ignores: ['src/modules/redis/**'], rules: { 'queues/redis': 'error' } },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/db/**', 'src/platform/jobs/**', ...SPECS],
    rules: { 'queues/after-commit': 'error' },
  },
].map((c) => ({ ...c, plugins: { queues: queuesPlugin } }));

/**
 * One list form (docs/api.md, Conventions: Pagination): a list query's `limit` is
 * PageSizeField given a row of PAGE_SIZES (src/platform/http/pagination/page-query.ts), never a
 * bare maximum, and its `cursor` is PageCursorField.
 */
const pageSizeRule = {
  meta: {
    type: 'problem',
    schema: [],
    messages: {
      table: 'Give PageSizeField a row of PAGE_SIZES (src/platform/http/pagination), not numbers.',
      form: "A list query's `{{name}}` is {{field}}() (src/platform/http/pagination/page-query.ts).",
    },
  },
  create(context) {
    const FIELDS = { limit: 'PageSizeField', cursor: 'PageCursorField' };
    const called = (d) =>
      d.expression.type === 'CallExpression' && d.expression.callee.type === 'Identifier'
        ? d.expression.callee.name
        : null;
    return {
      'CallExpression[callee.name="PageSizeField"]'(node) {
        const [size] = node.arguments;
        const fromTable =
          size?.type === 'MemberExpression' &&
          size.object.type === 'Identifier' &&
          size.object.name === 'PAGE_SIZES';
        if (!fromTable) context.report({ node, messageId: 'table' });
      },
      'ClassDeclaration[id.name=/Query$/] > ClassBody > PropertyDefinition'(node) {
        const name = node.key.type === 'Identifier' ? node.key.name : null;
        const field = FIELDS[name];
        if (field && !(node.decorators ?? []).some((d) => called(d) === field))
          context.report({ node, messageId: 'form', data: { name, field } });
      },
    };
  },
};
const listsIdiom = {
  files: ['src/**/*.ts'],
  // create-batch.dto.ts is eligibility's, which moves its batch items to PAGE_SIZES.batchItems.
  ignores: [
    'src/platform/http/pagination/**',
    'src/modules/eligibility/api/dto/create-batch.dto.ts',
    ...SPECS,
  ],
  plugins: { lists: { rules: { 'page-size': pageSizeRule } } },
  rules: { 'lists/page-size': 'error' },
};

/**
 * One route declaration for pages (issue 59): a page controller is a PageController and its
 * routes PageRead, PageWrite or PageRoute (src/platform/http/page-routes.ts), on the API
 * routes' table of methods, never Nest's method decorators stacked by hand.
 */
const PAGE_ROUTE_DECORATORS = {
  '@nestjs/common': new Set(['Get', 'Post', 'Put', 'Patch', 'Delete', 'HttpCode', 'Controller']),
  '@nestjs/swagger': new Set(['ApiExcludeController']),
};
const pagesPlugin = {
  rules: {
    route: rule(
      {
        route:
          "A page's routes are declared with PageController and PageRead, PageWrite or PageRoute (src/platform/http/page-routes.ts), not {{name}}.",
      },
      (context) => ({
        ImportDeclaration(node) {
          const names = PAGE_ROUTE_DECORATORS[node.source.value];
          if (!names) return;
          for (const s of node.specifiers)
            if (s.type === 'ImportSpecifier' && names.has(s.imported.name))
              context.report({ node: s, messageId: 'route', data: { name: s.imported.name } });
        },
      }),
    ),
  },
};
const pageRoutes = {
  files: ['src/modules/*/pages/**/*.ts', 'src/modules/web/**/*.ts'],
  ignores: SPECS,
  plugins: { pages: pagesPlugin },
  rules: { 'pages/route': 'error' },
};

/**
 * Two idioms of Shared idioms (docs/architecture.md):
 * - `house/instants`: an instant is written by src/platform/kernel/time.ts (`formatInstant`,
 *   `isoDate`), never by `toISOString()`;
 * - `house/envelopes`: an error answer is an error of the family (src/platform/kernel/errors.ts)
 *   thrown to the exception filter, never a body written by hand: no `.json(` on a response and no
 *   `{ detail }` or `{ errors }` literal sent, outside src/platform/http/http-exception.filter.ts.
 */
const RESPONSE = /^(res|response|reply)$/;
const isEnvelope = (node) =>
  node?.type === 'ObjectExpression' &&
  node.properties.some((p) => ['detail', 'errors'].includes(p.key?.name ?? p.key?.value));
const houseRules = {
  instants: {
    meta: {
      type: 'problem',
      schema: [],
      messages: { iso: 'Write instants with src/platform/kernel/time.ts, not toISOString().' },
    },
    create: (context) => ({
      'MemberExpression[property.name="toISOString"]': (node) =>
        context.report({ node, messageId: 'iso' }),
    }),
  },
  envelopes: {
    meta: {
      type: 'problem',
      schema: [],
      messages: {
        envelope:
          'Throw an error of src/platform/kernel/errors.ts; the exception filter answers it.',
      },
    },
    create(context) {
      return {
        CallExpression(node) {
          const callee = node.callee;
          if (callee.type !== 'MemberExpression' || callee.property.type !== 'Identifier') return;
          const on = callee.object;
          const onResponse =
            (on.type === 'Identifier' && RESPONSE.test(on.name)) ||
            (on.type === 'CallExpression' && on.callee.property?.name === 'status');
          const [arg] = node.arguments;
          const sent =
            isEnvelope(arg) ||
            (arg?.type === 'CallExpression' &&
              arg.callee.property?.name === 'stringify' &&
              isEnvelope(arg.arguments[0]));
          if ((callee.property.name === 'json' && onResponse) || (sent && onResponse))
            context.report({ node, messageId: 'envelope' });
        },
      };
    },
  },
};
const housePlugin = { rules: houseRules };
/** Files written before the instants idiom, not yet on it (their owners move them). */
const INSTANTS_NOT_YET = [
  'src/modules/eligibility/intake/domain/check-intake.ts',
  'src/modules/verification/api/verification-tasks.controller.ts',
  'src/modules/appointments/pages/schedule-view.ts',
];
const houseIdioms = [
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/kernel/time.ts', ...INSTANTS_NOT_YET, ...SPECS],
    rules: { 'house/instants': 'error' },
  },
  {
    files: ['src/**/*.ts'],
    ignores: ['src/platform/http/http-exception.filter.ts', ...SPECS],
    rules: { 'house/envelopes': 'error' },
  },
].map((c) => ({ ...c, plugins: { house: housePlugin } }));

export default tseslint.config(
  {
    ignores: [
      'dist/**',
      'node_modules/**',
      'coverage/**',
      'var/**',
      'eslint.config.mjs',
      'jest.config.js',
    ],
  },
  eslint.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  prettier,
  {
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
    rules: {
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/require-await': 'off',
      '@typescript-eslint/unbound-method': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
    },
  },
  boundaries,
  leaseColumns,
  sqlIdiom,
  ...doors,
  ...owners,
  ...queueIdiom,
  listsIdiom,
  pageRoutes,
  ...houseIdioms,
);
