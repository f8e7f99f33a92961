import { loadConfig } from './env';
import { DEFAULT_SERVICE_NAME, loadTracingConfig, tracingSettings } from './tracing';

describe('tracing settings (docs/observability.md, Tracing)', () => {
  it('is off without OTEL_EXPORTER_OTLP_ENDPOINT, or with it empty', () => {
    expect(tracingSettings({})).toBeNull();
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: '  ' })).toBeNull();
    expect(loadConfig({}).tracing).toBeNull();
  });

  it('takes the collector base URL (trailing slashes dropped) and the service name', () => {
    expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318/' })).toEqual({
      endpoint: 'http://collector:4318',
      serviceName: DEFAULT_SERVICE_NAME,
    });
    expect(
      loadConfig({
        OTEL_EXPORTER_OTLP_ENDPOINT: 'https://otel.example/base',
        OTEL_SERVICE_NAME: 'vision-eu',
      }).tracing,
    ).toEqual({ endpoint: 'https://otel.example/base', serviceName: 'vision-eu' });
  });

  it('refuses to start with one line for a bad endpoint (and the preload leaves tracing off)', () => {
    for (const [value, line] of [
      ['collector:4318', 'OTEL_EXPORTER_OTLP_ENDPOINT: must use http: or https:'],
      ['not a url', 'OTEL_EXPORTER_OTLP_ENDPOINT: must be a URL'],
      ['http://c:4318/?k=v', 'OTEL_EXPORTER_OTLP_ENDPOINT: a base URL without query'],
    ]) {
      const problems: string[] = [];
      expect(loadTracingConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: value }, problems)).toBeNull();
      expect(problems).toEqual([expect.stringContaining(line)]);
      expect(() => loadConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: value })).toThrow(line);
      expect(tracingSettings({ OTEL_EXPORTER_OTLP_ENDPOINT: value })).toBeNull();
    }
  });
});
