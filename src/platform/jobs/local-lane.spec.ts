import { LocalLane, Permits, type QueueJob } from './local-lane';

/** A handler whose runs end when the test says so. */
function controlled() {
  const runs: { job: QueueJob; end: (error?: Error) => void }[] = [];
  const handle = (job: QueueJob) =>
    new Promise<void>((resolve, reject) =>
      runs.push({ job, end: (error) => (error ? reject(error) : resolve()) }),
    );
  return { runs, handle };
}

const tick = () => new Promise((r) => setImmediate(r));

describe('Permits', () => {
  it('runs at most its permits at once, the waiters first come first served', async () => {
    const permits = new Permits(2);
    const order: string[] = [];
    const gates: (() => void)[] = [];
    const task = (name: string) =>
      permits.use(async () => {
        order.push(`start ${name}`);
        await new Promise<void>((r) => gates.push(r));
        order.push(`end ${name}`);
      });
    const all = ['a', 'b', 'c', 'd'].map(task);
    await tick();
    expect(order).toEqual(['start a', 'start b']);
    gates.shift()!();
    await tick();
    expect(order).toEqual(['start a', 'start b', 'end a', 'start c']);
    while (gates.length > 0) {
      gates.shift()!();
      await tick();
    }
    await Promise.all(all);
    expect(order.filter((o) => o.startsWith('start'))).toEqual([
      'start a',
      'start b',
      'start c',
      'start d',
    ]);
  });

  it('gives its permit back when the task throws', async () => {
    const permits = new Permits(1);
    await expect(permits.use(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(permits.use(() => Promise.resolve('ran'))).resolves.toBe('ran');
  });
});

describe('LocalLane', () => {
  it('runs offered rows within the permits it shares, each run with a job id of its own', async () => {
    const permits = new Permits(2);
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', permits, 10, handle, () => undefined);
    // Another user (the Bull worker) holds one permit.
    let releaseOther!: () => void;
    const other = permits.use(() => new Promise<void>((r) => (releaseOther = r)));
    for (const id of ['1', '2', '3']) expect(lane.offer(id)).toBe(true);
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['1']);
    expect(lane.pending).toBe(3);
    releaseOther();
    await other;
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['1', '2']);
    runs[0].end();
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['1', '2', '3']);
    runs[1].end();
    runs[2].end();
    await tick();
    expect(lane.pending).toBe(0);
    const ids = runs.map((r) => String(r.job.id));
    expect(new Set(ids).size).toBe(3);
    expect(ids[0]).toMatch(/^search:l[0-9a-f]{8}\.\d+$/);
  });

  it('refuses when full (the caller enqueues elsewhere) and takes a waiting row once', async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', permits, 2, handle, () => undefined);
    expect(lane.offer('1')).toBe(true);
    await tick();
    // '1' runs; the lane holds two more.
    expect(lane.offer('2')).toBe(true);
    expect(lane.offer('2')).toBe(true);
    expect(lane.offer('3')).toBe(true);
    expect(lane.offer('4')).toBe(false);
    runs[0].end();
    await tick();
    runs[1].end();
    await tick();
    runs[2].end();
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['1', '2', '3']);
  });

  it('runs a row stored leased to a reserved run under that job id, with the row as stored', async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', permits, 2, handle, () => undefined);
    const jobId = lane.reserve()!;
    expect(jobId).toMatch(/^search:l[0-9a-f]{8}\.\d+$/);
    // A reservation holds a place: one left.
    const spare = lane.reserve();
    expect(spare).not.toBeNull();
    expect(lane.reserve()).toBeNull();
    expect(lane.offer('9')).toBe(false);
    lane.cancel(spare!);
    const before = Date.now();
    expect(lane.submit(jobId, '7', { uid: 'abc' })).toBe(true);
    await tick();
    expect(runs).toHaveLength(1);
    expect(runs[0].job).toMatchObject({
      id: jobId,
      data: { id: '7' },
      leased: { row: { uid: 'abc' } },
    });
    expect(runs[0].job.leased!.at).toBeGreaterThanOrEqual(before);
    runs[0].end();
    await tick();
    // A reservation submitted after the lane closed is refused: the caller hands the row back.
    const late = lane.reserve()!;
    expect(lane.close()).toEqual([]);
    expect(lane.submit(late, '8', {})).toBe(false);
  });

  it("runs a row stored leased to a run of this process's own, while there is room", async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const lane = new LocalLane('deliver', permits, 1, handle, () => undefined);
    expect(lane.submit('first:p', '1', { url: 'u' })).toBe(true);
    await tick();
    expect(runs[0].job).toMatchObject({
      id: 'first:p',
      data: { id: '1' },
      leased: { row: { url: 'u' } },
    });
    // '1' runs; the one place left goes to '2', and no reservation is spent by either.
    expect(lane.submit('first:p', '2', {})).toBe(true);
    expect(lane.submit('first:p', '3', {})).toBe(false);
    expect(lane.reserve()).toBeNull();
    runs[0].end();
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['1', '2']);
    runs[1].end();
    await lane.idle();
  });

  it('hands back what it had not started, with the runs their rows were leased to', async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', permits, 5, handle, () => undefined);
    lane.offer('1');
    await tick();
    const jobId = lane.reserve()!;
    lane.submit(jobId, '2', {});
    lane.offer('3');
    expect(lane.close()).toEqual([
      { id: '2', jobId },
      { id: '3', jobId: null },
    ]);
    runs[0].end();
    await lane.idle();
  });

  it('reports a failed run and goes on', async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const failures: string[] = [];
    const lane = new LocalLane('search', permits, 5, handle, (id, e) =>
      failures.push(`${id}: ${e.message}`),
    );
    lane.offer('1');
    lane.offer('2');
    await tick();
    runs[0].end(new Error('db down'));
    await tick();
    expect(failures).toEqual(['1: db down']);
    expect(runs.map((r) => r.job.data.id)).toEqual(['1', '2']);
  });

  it('closes: refuses new rows, waits for its runs, answers the rows it had not started', async () => {
    const permits = new Permits(1);
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', permits, 5, handle, () => undefined);
    lane.offer('1');
    lane.offer('2');
    lane.offer('3');
    await tick();
    expect(lane.close()).toEqual([
      { id: '2', jobId: null },
      { id: '3', jobId: null },
    ]);
    expect(lane.offer('4')).toBe(false);
    let idle = false;
    const waiting = lane.idle().then(() => (idle = true));
    await tick();
    expect(idle).toBe(false);
    runs[0].end();
    await waiting;
    expect(runs).toHaveLength(1);
    // The permit came back.
    await expect(permits.use(() => Promise.resolve('free'))).resolves.toBe('free');
  });
});

describe('LocalLane.offerAt', () => {
  afterEach(() => jest.useRealTimers());

  it('starts a row when it is due, keeps only its latest time, and forgets it on close', async () => {
    jest.useFakeTimers({ doNotFake: ['setImmediate'] });
    const { runs, handle } = controlled();
    const lane = new LocalLane('search', new Permits(2), 10, handle, () => undefined);
    expect(lane.offerAt('a', 1_000)).toBe(true);
    expect(lane.offerAt('b', 500)).toBe(true);
    expect(lane.offerAt('b', 2_000)).toBe(true);
    expect(lane.offerAt('c', 3_000)).toBe(true);
    jest.advanceTimersByTime(999);
    await tick();
    expect(runs).toHaveLength(0);
    jest.advanceTimersByTime(1);
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['a']);
    jest.advanceTimersByTime(1_000);
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['a', 'b']);
    expect(lane.close()).toEqual([]);
    jest.advanceTimersByTime(5_000);
    await tick();
    expect(runs.map((r) => r.job.data.id)).toEqual(['a', 'b']);
    expect(lane.offerAt('d', 0)).toBe(false);
    for (const r of runs) r.end();
  });
});
