import { randomUUID } from 'node:crypto';
import { ProcessRegistry } from '@/platform/jobs/process-registry';
import { ServiceProcessesRepository } from '@/platform/jobs/service-processes.repository';
import { createTestContext, TestContext } from '../support/app';
import { recordSql, SqlRecording } from '../support/sql-recorder';

/** The SQL of ServiceProcessesRepository (ProcessRegistry's table), one snapshot per method. */
describe('service processes repository', () => {
  let t: TestContext;
  let sql: SqlRecording;
  let processes: ServiceProcessesRepository;

  beforeAll(async () => {
    t = await createTestContext();
    processes = t.ctx.get(ServiceProcessesRepository);
    // The registry's own heartbeat stops, so every statement recorded is this spec's.
    await t.ctx.get(ProcessRegistry).deregister();
    sql = recordSql({ keepBackground: true });
  });
  afterAll(async () => {
    sql.stop();
    await t.close();
  });

  const rec = <T>(name: string, call: () => Promise<T>) => sql.snapshot(name, call);

  it('registers, beats, lists and removes processes', async () => {
    const id = randomUUID();
    const other = randomUUID();
    await rec('beat', () => processes.beat({ id, host: 'test-host', pid: 1, role: 'worker' }));
    await processes.beat({ id, host: 'test-host', pid: 1, role: 'worker' });
    const seen = await rec('others', () => processes.others(other, 60_000));
    expect(seen).toContainEqual({ id, host: 'test-host', pid: 1, lapsed: false });
    expect((await processes.others(other, 0)).find((r) => r.id === id)?.lapsed).toBe(true);
    await rec('remove', () => processes.remove([id]));
    expect((await processes.others(other, 60_000)).map((r) => r.id)).not.toContain(id);
  });
});
