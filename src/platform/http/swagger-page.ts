import type { INestApplication } from '@nestjs/common';
import { type OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import type { Request, Response } from 'express';

/**
 * The script that starts Swagger UI with the document inlined, concatenated: @nestjs/swagger's
 * `template.replace` read `$&`-style patterns in the document and blanked /docs. `<`, U+2028 and
 * U+2029 are escaped so no `</script>` can close it.
 */
function swaggerInitScript(document: OpenAPIObject): string {
  const spec = JSON.stringify(document)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
  return [
    'window.onload = function () {',
    '  window.ui = SwaggerUIBundle({',
    `    spec: ${spec},`,
    "    dom_id: '#swagger-ui',",
    '    deepLinking: true,',
    '    presets: [SwaggerUIBundle.presets.apis, SwaggerUIStandalonePreset],',
    '    plugins: [SwaggerUIBundle.plugins.DownloadUrl],',
    "    layout: 'StandaloneLayout',",
    '  });',
    '};',
    '',
  ].join('\n');
}

/**
 * Swagger UI at /docs and the document at /docs-json (docs/api.md, Errors). Nest's module serves the
 * page, its assets and the JSON; the init script is ours, registered first so Express routes
 * `/docs/swagger-ui-init.js` here and never to Nest's handler.
 */
export function setupSwaggerPage(
  app: INestApplication,
  build: () => OpenAPIObject,
  title: string,
): void {
  let document: OpenAPIObject | undefined;
  let script: string | undefined;
  const getDocument = () => (document ??= build());
  const http = app.getHttpAdapter();
  const serveInit = (_req: Request, res: Response) => {
    script ??= swaggerInitScript(getDocument());
    res.type('application/javascript').send(script);
  };
  // The second path is where /docs/index.html's relative URLs lead; Nest's module serves both.
  http.get('/docs/swagger-ui-init.js', serveInit);
  http.get('/docs/docs/swagger-ui-init.js', serveInit);
  SwaggerModule.setup('docs', app, getDocument, {
    jsonDocumentUrl: 'docs-json',
    customSiteTitle: title,
  });
}
