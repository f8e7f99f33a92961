import { Script, createContext } from 'node:vm';
import { Controller, Get } from '@nestjs/common';
import { ApiOperation, ApiTags } from '@nestjs/swagger';
import request from 'supertest';
import { NotPatientData } from '@/modules/audit/domain/audited';
import { RequireScope } from '@/modules/auth/domain/scopes';
import { createTestApp, TestApp } from './support/app';

/** Every replacement pattern of String.replace, a closing script tag, HTML and line separators. */
const AWKWARD =
  "Costs `$` or $` or $& or $' or $$ or $1; </script><script>alert(1)</script> <b>bold</b> " +
  '\u2028line\u2029paragraph';

/** Test-only route: its documentation carries the awkward text into the document. */
@ApiTags('Health')
@Controller('api/auth/v1/_docs_probe')
class DocsProbeController {
  @Get()
  @ApiOperation({ summary: 'Probe `$`', description: AWKWARD })
  @RequireScope('eligibility:read')
  @NotPatientData()
  probe() {
    return {};
  }
}

type Json = Record<string, any>;

/** Runs the init script as a browser would, with Swagger UI replaced by a recorder. */
function runInitScript(js: string): Json {
  const calls: Json[] = [];
  const SwaggerUIBundle = Object.assign((options: Json) => calls.push(options), {
    presets: { apis: 'apis' },
    plugins: { DownloadUrl: 'download-url' },
  });
  const window: Json = {};
  const context = createContext({ window, SwaggerUIBundle, SwaggerUIStandalonePreset: 'preset' });
  new Script(js, { filename: 'swagger-ui-init.js' }).runInContext(context);
  (window.onload as () => void)();
  expect(calls).toHaveLength(1);
  return calls[0];
}

describe('Swagger UI at /docs (docs/api.md, Errors)', () => {
  describe('outside production', () => {
    let t: TestApp;
    const http = () => request(t.app.getHttpServer());

    beforeAll(async () => {
      t = await createTestApp({ controllers: [DocsProbeController] });
    });
    afterAll(() => t.close());

    it('serves an init script that parses and holds the document intact, $` and </script> included', async () => {
      const json = await http().get('/docs-json').expect(200);
      const op = json.body.paths['/api/auth/v1/_docs_probe/'].get;
      expect(op.description).toBe(AWKWARD);

      for (const path of ['/docs/swagger-ui-init.js', '/docs/docs/swagger-ui-init.js']) {
        const res = await http().get(path).expect(200);
        expect(res.headers['content-type']).toMatch(/^application\/javascript/);
        // A closing tag never appears raw, wherever the script is placed.
        expect(res.text).not.toContain('</script>');
        const options = runInitScript(res.text);
        expect(options).toMatchObject({ dom_id: '#swagger-ui', layout: 'StandaloneLayout' });
        expect(options.spec).toEqual(json.body);
        expect(options.spec.paths['/api/auth/v1/_docs_probe/'].get.description).toBe(AWKWARD);
        expect(options.spec.paths['/api/auth/v1/_docs_probe/'].get.summary).toBe('Probe `$`');
      }
    });

    it('serves the page at /docs and /docs/, which loads that script', async () => {
      for (const path of ['/docs', '/docs/']) {
        const page = await http().get(path).expect(200);
        expect(page.headers['content-type']).toMatch(/^text\/html/);
        expect(page.text).toMatch(/<script src="[^"]*swagger-ui-init\.js">/);
      }
      await http().get('/docs/swagger-ui-bundle.js').expect(200);
    });
  });

  describe('in production', () => {
    const production = {
      NODE_ENV: 'production',
      APP_ENCRYPTION_KEY: 'a'.repeat(64),
      SESSION_SECRET: 's'.repeat(32),
      // What else production requires (SECURITY.md).
      PUBLIC_URL: 'https://vision.example.test',
      PASSWORD_HASH_COST: '14',
    };

    it('answers 404 for the page and the document unless DOCS_PUBLIC=true', async () => {
      const t = await createTestApp({ env: production });
      try {
        expect(t.config.docsPublic).toBe(false);
        for (const path of ['/docs', '/docs/', '/docs/swagger-ui-init.js', '/docs-json']) {
          const res = await request(t.app.getHttpServer()).get(path);
          expect([path, res.status]).toEqual([path, 404]);
          expect(res.text).not.toContain('swagger');
        }
      } finally {
        await t.close();
      }
    });

    it('serves them with DOCS_PUBLIC=true', async () => {
      const t = await createTestApp({ env: { ...production, DOCS_PUBLIC: 'true' } });
      try {
        const http = request(t.app.getHttpServer());
        await http.get('/docs/').expect(200);
        const json = await http.get('/docs-json').expect(200);
        const js = await http.get('/docs/swagger-ui-init.js').expect(200);
        expect(runInitScript(js.text).spec).toEqual(json.body);
      } finally {
        await t.close();
      }
    });
  });
});
