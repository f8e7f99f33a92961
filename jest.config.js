/**
 * Two tiers. `unit` (npm run test:unit, well under a minute): pure specs next to the code, and
 * service-level specs (test/service) that call services with their real repositories against
 * PostgreSQL and Redis, without HTTP. `e2e`: the real AppModule over HTTP.
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
        '<rootDir>/test/*.spec.ts',
      ],
      setupFiles: ['<rootDir>/test/support/env.ts'],
    },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/env.ts'],
      // Every answer the e2e tests receive is checked against the OpenAPI document.
      setupFilesAfterEnv: ['<rootDir>/test/support/openapi-setup.ts'],
    },
  ],
};
