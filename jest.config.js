/** Unit specs sit next to the code; e2e specs drive the real AppModule against PostgreSQL and Redis. */
const common = {
  testEnvironment: 'node',
  moduleFileExtensions: ['ts', 'js', 'json'],
  transform: { '^.+\\.ts$': ['ts-jest', { tsconfig: 'tsconfig.jest.json' }] },
  moduleNameMapper: { '^@/(.*)$': '<rootDir>/src/$1' },
};

module.exports = {
  globalSetup: '<rootDir>/test/support/global-setup.js',
  globalTeardown: '<rootDir>/test/support/global-teardown.js',
  testTimeout: 60_000,
  reporters: ['default', '<rootDir>/test/support/summary-reporter.js'],
  maxWorkers: process.env.JEST_MAX_WORKERS || 2,
  projects: [
    { ...common, displayName: 'unit', testMatch: ['<rootDir>/src/**/*.spec.ts'] },
    {
      ...common,
      displayName: 'e2e',
      testMatch: ['<rootDir>/test/**/*.e2e-spec.ts'],
      setupFiles: ['<rootDir>/test/support/env.ts'],
    },
  ],
};
