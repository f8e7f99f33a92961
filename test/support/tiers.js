// The test tiers (jest.config.js says what each mark means), their files and what each needs.
// Plain JS: jest.config.js and global-setup.js read it before any TypeScript transform.
const { accessSync, constants } = require('node:fs');
const { delimiter, join } = require('node:path');
const { spawnSync } = require('node:child_process');
const Redis = require('ioredis');

const ROOT = join(__dirname, '..', '..');
const MARKS = ['io', 'pg', 'redis', 'browser', 'tools'];
/**
 * TEST_TIER → the marks of its files ('' is no mark); unset or empty: npm test's tier. `unmarked`
 * is npm test's without `.io.` and `.pg.`: the specs that need nothing outside the process.
 */
const TIERS = {
  '': ['', 'io', 'pg'],
  unmarked: [''],
  redis: ['redis'],
  browser: ['browser'],
  tools: ['tools'],
};

function tierOf(env = process.env) {
  const tier = env.TEST_TIER ?? '';
  if (!(tier in TIERS)) {
    throw new Error(
      `TEST_TIER=${tier}: one of unmarked, redis, browser, tools, or unset (npm test's tier)`,
    );
  }
  return tier;
}

/** The mark of a spec file's name ('' for none). */
const markOf = (file) =>
  MARKS.find((m) => new RegExp(`\\.${m}\\.(medium\\.spec|spec|e2e-spec)\\.ts$`).test(file)) ?? '';

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * The testRegex of a project's files in `tier`: `folders` (regex sources under the root, each
 * ending in `/`) holding files named `<name>[.<mark>]<suffix>`; a name never ends in a mark.
 */
function testRegex(tier, folders, suffix) {
  const marks = TIERS[tier].map((m) => (m ? `\\.${m}` : '')).join('|');
  const name = `[^/]+(?<!\\.(?:${MARKS.join('|')}))`;
  return `^${escape(ROOT)}/(?:${folders.join('|')})${name}(?:${marks})${escape(suffix)}$`;
}

/** The two projects' files in `tier`: `unit` (three regexes) and `e2e` (one). */
function tierFiles(tier) {
  return {
    unit: [
      testRegex(tier, ['src/(?:.+/)?', 'test/service/(?:.+/)?', 'test/'], '.spec.ts'),
      testRegex(tier, ['test/modules/(?:.+/)?'], '.medium.spec.ts'),
    ],
    e2e: [testRegex(tier, ['test/(?:.+/)?'], '.e2e-spec.ts')],
  };
}

const onPath = (name) =>
  (process.env.PATH ?? '').split(delimiter).some((dir) => {
    try {
      accessSync(join(dir, name), constants.X_OK);
      return true;
    } catch {
      return false;
    }
  });
const executable = (path) => {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
};

/** True when a Redis server answers PING at `url` within a second or two. */
async function redisAnswers(url) {
  const redis = new Redis(url, {
    lazyConnect: true,
    connectTimeout: 1_000,
    maxRetriesPerRequest: 0,
    retryStrategy: () => null,
  });
  redis.on('error', () => undefined);
  try {
    await redis.connect();
    return (await redis.ping()) === 'PONG';
  } catch {
    return false;
  } finally {
    redis.disconnect();
  }
}

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const chromiumNeed = () =>
  executable(CHROMIUM)
    ? []
    : [`Chromium at ${CHROMIUM} (apt install chromium, or set CHROMIUM_PATH)`];

/**
 * What `tier` lacks, as the one sentence that says what to install; null when nothing is missing.
 * The tools tier's needs are the specs': pyx12 (third_party/pyx12 on /usr/bin/python3 with
 * defusedxml), pdftotext, promtool, psql, and Chromium for the claim form read back from a download.
 */
async function missingFor(tier) {
  if (tier === 'redis') {
    const url = process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379';
    if (await redisAnswers(url)) return null;
    const { hostname, port } = new URL(url);
    return `The Redis tier needs Redis on ${hostname}:${port || 6379} (apt install redis-server, or set TEST_REDIS_URL).`;
  }
  const missing = tier === 'browser' || tier === 'tools' ? chromiumNeed() : [];
  if (tier === 'tools') {
    const python = spawnSync('/usr/bin/python3', ['-c', 'import defusedxml'], { stdio: 'ignore' });
    if (python.status !== 0)
      missing.push("Python 3's defusedxml for pyx12 (apt install python3-defusedxml)");
    if (!executable('/usr/bin/pdftotext') || !onPath('pdftotext'))
      missing.push('pdftotext (apt install poppler-utils)');
    if (!onPath('promtool')) missing.push('promtool (apt install prometheus)');
    if (!onPath('psql')) missing.push('psql (apt install postgresql-client)');
  }
  if (missing.length === 0) return null;
  const what = tier === 'browser' ? 'The browser tier' : 'The tools tier';
  return `${what} needs ${missing.join(', ')}; npm run test:${tier} installs ${missing.length > 1 ? 'them' : 'it'} as root.`;
}

module.exports = { MARKS, ROOT, TIERS, markOf, missingFor, tierFiles, tierOf };
