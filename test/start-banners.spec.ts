import { StartBanners } from '@/cluster';
import { demoBanner, keyAgainLine } from '@/serve';

/** What `npm start` prints last (src/serve.ts): the first key once, then how to get another. */
describe('the start-up banners', () => {
  const config = { isProduction: false, publicUrl: 'http://localhost:3000' };
  const demo = {
    apiKey: 'vk_demo',
    email: 'demo@vision.localhost',
    password: 'pw',
    locationCode: 'LOC1',
  };

  it('says on a later start, in one line, how to create a key again (CLI and web page)', () => {
    const line = keyAgainLine(config);
    expect(line.trimEnd().split('\n')).toHaveLength(1);
    expect(line).toContain('npm run --silent cli -- api-keys:create --email demo@vision.localhost');
    expect(line).toContain('http://localhost:3000/app/api-keys/');
    expect(line).not.toContain('vk_');
  });

  it('prints, in a cluster, the banner of the process that seeded and not the line', () => {
    const banners = new StartBanners(2);
    banners.report('demo-key-again', keyAgainLine(config));
    expect(banners.due(2)).toBeNull();
    banners.report('demo-banner', demoBanner(demo, config));
    expect(banners.due(1)).toBeNull();
    expect(banners.due(2)).toContain('Demo account created');
    expect(banners.due(2)).toBeNull();
  });

  it('prints the line once when every process found the account there', () => {
    const banners = new StartBanners(2);
    banners.report('demo-key-again', keyAgainLine(config));
    banners.report('demo-key-again', keyAgainLine(config));
    expect(banners.due(2)).toBe(keyAgainLine(config));
    // A process restarted later reports again: nothing more is printed.
    banners.report('demo-key-again', keyAgainLine(config));
    expect(banners.due(3)).toBeNull();
  });
});
