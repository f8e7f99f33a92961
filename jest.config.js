/**
 * Two projects. `unit`, the fast tier (npm run test:unit, well under a minute cold on two cores):
 * - pure specs next to the code (`*.spec.ts` under src), and checks of files outside src
 *   (test/*.spec.ts);
 * - module medium tests (test/modules/<name>.medium.spec.ts): one feature module booted alone,
 *   its Nest module on the shared config, database, Redis and queue modules, nothing else of the
 *   app (test/support/module.ts), its service called through its door against PostgreSQL;
 * - service-level specs (test/service) that call services of the whole AppModule with their real
 *   repositories against PostgreSQL and Redis, without HTTP.
 * `e2e` (npm run test:e2e): the real AppModule over HTTP. `npm test` runs both; CI (.ci/run) runs
 * the fast tier on Node.js 22 as well.
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
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['@swc/jest', swc] },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};

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
      testMatch: [
        '<rootDir>/src/**/*.spec.ts',
        '<rootDir>/test/service/**/*.spec.ts',
        '<rootDir>/test/modules/**/*.medium.spec.ts',
        '<rootDir>/test/*.spec.ts',
      ],
      setupFiles: ['<rootDir>/test/support/env.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/env.ts'],
      // Every answer the e2e tests receive is checked against the OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
    },
  ],
};
