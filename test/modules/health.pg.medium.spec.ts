import { ServiceUnavailableException } from '@nestjs/common';
import { HealthModule } from '@/modules/health';
import { HealthController } from '@/modules/health/api/health.controller';
import { bootModule, ModuleContext } from '../support/module';

/**
 * The health module booted alone (test/support/module.ts), on PostgreSQL alone: the process is
 * live, and not ready while Redis does not answer (the medium tier's REDIS_URL names a port
 * where nothing listens), with the database up in the same report.
 */
describe('health module, alone', () => {
  let t: ModuleContext;
  let health: HealthController;

  beforeAll(async () => {
    t = await bootModule(HealthModule);
    health = t.ctx.get(HealthController);
  });
  afterAll(() => t.close());

  it('boots with nothing else of the application', () => {
    expect(t.booted).toEqual(['HealthModule']);
  });

  it('is live, and refuses readiness naming Redis down and PostgreSQL up', async () => {
    expect(health.live()).toEqual({ status: 'ok' });
    const refused = await health.ready().then(
      () => null,
      (e: unknown) => e,
    );
    expect(refused).toBeInstanceOf(ServiceUnavailableException);
    expect((refused as ServiceUnavailableException).getResponse()).toMatchObject({
      status: 'error',
      details: {
        process: { status: 'up' },
        database: { status: 'up' },
        redis: { status: 'down' },
      },
    });
  });
});
