import { ConfigError, loadConfig } from '@/platform/config/env';
import { createRootLogger } from './logging';

const KEY = 'vk_' + 'Q'.repeat(43);

function capture(format: 'json' | 'pretty'): { lines: string[]; log: () => void } {
  const lines: string[] = [];
  const config = { ...loadConfig({}, false), logLevel: 'info', logFormat: format };
  const logger = createRootLogger(config, { write: (s: string) => lines.push(s) });
  return {
    lines,
    log: () =>
      logger.info(
        {
          req: { id: 'r-1', method: 'GET', headers: { authorization: `Api ${KEY}` } },
          user: { password: 'pw-value' },
        },
        'request completed',
      ),
  };
}

describe('log format (LOG_FORMAT)', () => {
  it('is human-readable on a terminal in development, JSON lines everywhere else', () => {
    expect(loadConfig({ NODE_ENV: 'development' }, true).logFormat).toBe('pretty');
    expect(loadConfig({ NODE_ENV: 'development' }, false).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'test' }, true).logFormat).toBe('json');
    expect(loadConfig({ NODE_ENV: 'development', LOG_FORMAT: 'json' }, true).logFormat).toBe(
      'json',
    );
    expect(loadConfig({ NODE_ENV: 'test', LOG_FORMAT: 'pretty' }, false).logFormat).toBe('pretty');
    expect(() => loadConfig({ LOG_FORMAT: 'xml' }, false)).toThrow(ConfigError);
  });

  it('writes pretty lines with the same redaction as JSON', () => {
    const pretty = capture('pretty');
    pretty.log();
    const text = pretty.lines.join('');
    expect(text).toContain('request completed');
    expect(text).toContain('r-1');
    expect(() => JSON.parse(pretty.lines[0])).toThrow();
    expect(text).toContain('[REDACTED]');
    expect(text).not.toContain(KEY);
    expect(text).not.toContain('pw-value');
  });

  it('writes one JSON object per line by default', () => {
    const json = capture('json');
    json.log();
    expect(json.lines).toHaveLength(1);
    const line = JSON.parse(json.lines[0]);
    expect(line).toMatchObject({ msg: 'request completed', req: { id: 'r-1' } });
    expect(line.req.headers.authorization).toBe('[REDACTED]');
    expect(line.user.password).toBe('[REDACTED]');
  });
});
