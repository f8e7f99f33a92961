import { createServer } from 'node:net';
import { choosePort, STANDARD_PORT } from './server';

describe('choosePort (the embedded server never takes the service own port)', () => {
  it('passes over 5432 and any free port it is asked to avoid', async () => {
    const first = await choosePort([STANDARD_PORT]);
    expect(first).not.toBe(STANDARD_PORT);
    const second = await choosePort([STANDARD_PORT, first]);
    expect([STANDARD_PORT, first]).not.toContain(second);
    // What it answers is free: a listener can take it.
    const probe = createServer();
    await new Promise<void>((resolve, reject) => {
      probe.once('error', reject);
      probe.listen(second, '127.0.0.1', resolve);
    });
    await new Promise((r) => probe.close(r));
  });
});
