/**
 * Test tiers, by what a spec needs outside its process, named by a mark before its suffix
 * (`src/x/y.pg.spec.ts`, `test/web.browser.e2e-spec.ts`, `test/modules/z.pg.medium.spec.ts`):
 * - no mark: nothing outside the process: no network, database or child process, which
 *   test/support/tier-environment.js refuses in such a spec (reading files is fine);
 * - `.io.`: the machine's I/O, nothing installed: sockets on loopback (a fake server of the spec's
 *   own, a port where nothing listens), child processes of programs every machine has (node,
 *   sleep);
 * - `.pg.`: PostgreSQL, the machine's (127.0.0.1:5432, or TEST_DATABASE_BASE_URL) or else the
 *   embedded one (test/support/global-setup.js);
 * - `.redis.`: Redis itself: Bull's jobs, Redis outages, the rate limit shared across processes,
 *   the search path through Bull, the revocation channel;
 * - `.browser.`: Chromium (test/support/browser.ts);
 * - `.tools.`: Debian's programs: pyx12 on Python 3, pdftotext, promtool, psql, curl.
 * A spec needing Chromium and a tool is `.tools.` (the tools tier has Chromium too). A `.redis.`
 * spec needs nothing else (test/test-tiers.spec.ts holds it): every tier but the redis one runs
 * the service on PostgreSQL alone, REDIS_URL at a port where nothing listens (test/support/env.ts).
 * TEST_TIER, set by the npm scripts, picks the files (test/support/tiers.js): unset, `npm test`
 * (and test:unit, test:e2e) runs the unmarked, `.io.` and `.pg.` specs; `npm run test:unmarked`
 * (TEST_TIER=unmarked) the unmarked ones alone, with no database prepared (global-setup.js) and
 * no network needed; `npm run test:redis`, `test:browser`, `test:tools` run the others (`npm run
 * test:redis -- test/x.redis.e2e-spec.ts` for one file). A tier that lacks what it needs stops at
 * once, saying what to install.
 *
 * Two projects in each tier. `unit`, the fast tier (npm run test:unit, well under a minute cold
 * on two cores):
 * - pure specs next to the code (`*.spec.ts` under src), and checks of files outside src
 *   (test/*.spec.ts);
 * - module medium tests (test/modules/<name>.pg.medium.spec.ts): one feature module booted alone,
 *   its Nest module on the shared config, database, Redis and queue modules, nothing else of the
 *   app (test/support/module.ts), its service called through its door against PostgreSQL;
 * - service-level specs (test/service) that call services of the whole AppModule with their real
 *   repositories against PostgreSQL, without HTTP.
 * `e2e` (npm run test:e2e): the real AppModule over HTTP. CI (.ci/run) runs every tier, and the
 * whole of npm test on Node.js 22 (the Dockerfile's), the other tiers on the machine's Node.
 *
 * The fast tier's TypeScript is compiled by SWC (@swc/jest), without type checking (`npm run
 * check` does that): legacy decorators with their metadata as tsc emits it, which Nest's
 * injection reads. The e2e tier keeps ts-jest (isolated modules, tsconfig.jest.json): its specs
 * spy on functions a module exports (jest.spyOn on the module object), which SWC's CommonJS
 * exports, defined as fixed getters, refuse.
 */
const swc = {
  jsc: {
    parser: { syntax: 'typescript', decorators: true },
    transform: { legacyDecorator: true, decoratorMetadata: true, useDefineForClassFields: true },
    target: 'es2023',
    keepClassNames: true,
  },
  module: { type: 'commonjs' },
  sourceMaps: 'inline',
};

const common = {
  // Node's, with the unmarked tier's check in a spec without a mark.
  testEnvironment: '<rootDir>/test/support/tier-environment.js',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};

const { tierFiles, tierOf } = require('./test/support/tiers');

const files = tierFiles(tierOf());

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: process.env.JEST_MAX_WORKERS || 2,
  projects: [
    {
      ...common,
      displayName: 'unit',
      // test/*.spec.ts: checks of files outside src, e.g. the Kubernetes manifests in deploy/.
      testRegex: files.unit,
      setupFiles: ['<rootDir>/test/support/env.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
      testRegex: files.e2e,
      setupFiles: ['<rootDir>/test/support/env.ts'],
      // Every answer the e2e tests receive is checked against the OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
    },
  ],
};
