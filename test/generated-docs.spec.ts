import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '@/platform/config/env';
import { loadMcpBridgeConfig } from '@/platform/config/mcp-bridge';
import { loadMigrationConfig } from '@/platform/config/migration';
import {
  COMMAND,
  committed,
  environmentTable,
  environmentVariables,
  LISTINGS,
  queueRows,
  regenerate,
  topicOf,
} from '../scripts/generated-docs';
import { WEBHOOK_EVENTS } from '@/platform/http/webhook-events.doc';

const read = (file: string) => readFileSync(join(__dirname, '..', file), 'utf8');

/**
 * The listings the code decides (scripts/generated-docs.ts): the module graph and the queues in
 * docs/architecture.md, the webhook events in docs/api.md, the variables in
 * docs/configuration.md. Each is made again from the source text and compared with the
 * committed one. Reads files only.
 */
describe('the generated listings of the documents', () => {
  it.each(LISTINGS.map((l) => [`${l.file}, ${l.name}`, l] as const))(
    '%s is the one the code makes',
    (_, listing) => {
      const text = committed(read(listing.file), listing.name);
      const fresh = listing.render(text);
      expect({ listing: listing.name, run: COMMAND, text }).toEqual({
        listing: listing.name,
        run: COMMAND,
        text: fresh,
      });
      expect(fresh).not.toMatch(/\| {2}\|$/m);
    },
  );

  it('lists every variable the configuration reads, as loading it reads them', () => {
    const read = new Set<string>();
    const recording = (values: Record<string, string>) =>
      new Proxy(values, {
        get: (target, key) => {
          if (typeof key === 'string' && /^[A-Z]/.test(key)) read.add(key);
          return target[key as string];
        },
      });
    loadConfig(recording({}), false);
    loadMigrationConfig(recording({}));
    // The stdio bridge's own two, both required (docs/api.md, MCP).
    loadMcpBridgeConfig(recording({ VISION_API_KEY: 'vk_x', VISION_BASE_URL: 'http://x' }));
    const everything = {
      ...{
        NODE_ENV: 'production',
        PUBLIC_URL: 'https://x.example',
        SESSION_SECRET: 's'.repeat(32),
      },
      ...{ APP_ENCRYPTION_KEY: 'a'.repeat(64), APP_ENCRYPTION_KEY_PREVIOUS: 'b'.repeat(64) },
      ...{ METRICS_PORT: '9100', OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel:4318' },
      ...{ SMTP_URL: 'smtps://mail.example', PHI_RETENTION_DAYS: '30' },
      ...{ CLEARINGHOUSE_ELIGIBILITY_URL: 'https://ch.example', CLEARINGHOUSE_API_KEY: 'k' },
      ...{ X12_SUBMITTER_ID: 'S', X12_RECEIVER_ID: 'R', CLEARINGHOUSE_CLAIMS_URL: 'https://c.x' },
    };
    loadConfig(recording(everything), false);
    expect([...environmentVariables().keys()].sort()).toEqual([...read].sort());
  });

  it("keeps the document's meanings and words a computed default, and takes literals from the code", () => {
    const doc = [
      '| variable | default | meaning |',
      '|---|---|---|',
      '| `PORT` | `8080` | HTTP port |',
      '| `DEMO_SEED` | `true` unless production | the demo account |',
      '| `CLAIM_REPORTS_INTERVAL_MS`, `NO_SUCH_VARIABLE` | `1` | between two polls |',
    ].join('\n');
    const lines = environmentTable(doc).split('\n');
    expect(lines.slice(2, 5)).toEqual([
      '| `PORT` | `3000` | HTTP port |',
      '| `DEMO_SEED` | `true` unless production | the demo account |',
      '| `CLAIM_REPORTS_INTERVAL_MS` | `300000` (5 min) | between two polls |',
    ]);
    // A variable the table lacks is added, without a meaning (the generator then refuses).
    expect(lines).toContain('| `ROLE` | `all` |  |');
  });

  it('finds every queue definition with its worker, and every event its topic', () => {
    const queues = queueRows();
    expect(queues.map((q) => q.name)).toEqual(
      expect.arrayContaining(['eligibility-search', 'webhook-delivery', 'mail']),
    );
    for (const q of queues) expect([q.name, q.worker]).not.toEqual([q.name, '(none)']);
    expect(topicOf('claim.status_changed')).toBe('claim');
    expect(topicOf('eligibility.batch_finished')).toBe('batch');
    expect(topicOf('eligibility.finished')).toBe('eligibility');
    expect(WEBHOOK_EVENTS.length).toBeGreaterThan(5);
  });

  it('rewrites only what stands between the markers', () => {
    const [listing] = LISTINGS;
    const doc = [
      'before',
      `<!-- generated: ${listing.name}, by scripts/generated-docs.ts -->`,
      'stale',
      `<!-- end: ${listing.name} -->`,
      'after',
    ].join('\n');
    const out = regenerate(doc, listing).split('\n');
    expect([out[0], out[1], out.at(-2), out.at(-1)]).toEqual([
      'before',
      `<!-- generated: ${listing.name}, by scripts/generated-docs.ts -->`,
      `<!-- end: ${listing.name} -->`,
      'after',
    ]);
    expect(out.join('\n')).not.toContain('stale');
    expect(() => committed('no markers', listing.name)).toThrow(/no markers/);
  });
});
