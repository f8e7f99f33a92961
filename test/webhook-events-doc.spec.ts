import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { WEBHOOK_EVENT_TYPES } from '@/platform/http/api-document';
import { WEBHOOK_TOPICS } from '@/modules/webhooks';

/** Every .ts file under a directory, specs left out. */
function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sources(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/**
 * The events the service records for webhooks: every `EVENT_* = '...'` constant and every
 * `event: '...'` literal given to the outbox in src/modules.
 */
function eventsInCode(): string[] {
  const found = new Set<string>();
  for (const file of sources(join(__dirname, '..', 'src', 'modules'))) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(/\bEVENT_[A-Z_]+ = '([a-z_]+\.[a-z_]+)'/g)) found.add(m[1]);
    for (const m of text.matchAll(/\bevent: '([a-z_]+\.[a-z_]+)'/g)) found.add(m[1]);
  }
  return [...found].sort();
}

describe('the webhook events of the OpenAPI document', () => {
  it('are every event the service sends, each a callback with its X-Event-Type', () => {
    const inCode = eventsInCode();
    expect(inCode).toEqual(
      expect.arrayContaining(['verification_task.created', 'claim.status_changed']),
    );
    expect([...WEBHOOK_EVENT_TYPES].sort()).toEqual(inCode);
  });

  it("are each named in the README's tour", () => {
    const readme = readFileSync(join(__dirname, '..', 'README.md'), 'utf8');
    const tour = readme.split('\n').find((l) => l.startsWith('| webhooks |'))!;
    for (const type of WEBHOOK_EVENT_TYPES) expect(tour).toContain(`\`${type}\``);
  });

  it("limit a webhook's `events` to the topics there are, one limit for both bodies", () => {
    const doc = JSON.parse(readFileSync(join(__dirname, '..', 'openapi.json'), 'utf8'));
    for (const name of ['CreateWebhookDto', 'UpdateWebhookDto', 'WebhookResponse']) {
      const events = doc.components.schemas[name].properties.events;
      expect([name, events.items.enum]).toEqual([name, [...WEBHOOK_TOPICS]]);
      if (name !== 'WebhookResponse')
        expect([name, events.maxItems]).toEqual([name, WEBHOOK_TOPICS.length]);
    }
  });
});
