import type { INestApplication } from '@nestjs/common';
import { ExpressAdapter, type NestExpressApplication } from '@nestjs/platform-express';
import { DocumentBuilder, OpenAPIObject, SwaggerModule } from '@nestjs/swagger';
import express from 'express';
import helmet from 'helmet';
import { Logger } from 'nestjs-pino';
import { API_TAGS, finishDocument } from '@/platform/http/api-document';
import {
  answerClientErrors,
  requestIdMiddleware,
  securityHeaders,
} from '@/platform/http/http-pipeline';
import { accessLogMiddleware, rootLoggerOf } from '@/platform/kernel/logging';
import { setupSwaggerPage } from '@/platform/http/swagger-page';
import { Metrics } from '@/platform/metrics/metrics';
import { httpMetricsMiddleware } from '@/platform/metrics/http-metrics';
import { requestTracing } from '@/platform/tracing/tracing';
import { APP_CONFIG } from '@/platform/config/config.module';
import type { AppConfig } from '@/platform/config/env';
import { benefitLabel } from '@/lib/benefits';
import { insurerName } from '@/modules/insurers';
import { setupViews } from '@/modules/web';

export const API_TITLE = 'Vision Eligibility & Claims API';

/**
 * The Express instance every app is built on, with case-sensitive routing (else `/API/...` reached
 * the handlers past every check keyed on `/api/`), set before the adapter creates the router.
 */
export function createHttpAdapter(): ExpressAdapter {
  const server = express();
  server.set('case sensitive routing', true);
  return new ExpressAdapter(server);
}

/**
 * Everything about the HTTP stack that is not a Nest provider, shared by main.ts and the e2e
 * tests so they exercise the production pipeline. The app must be created on createHttpAdapter()
 * with `{ bodyParser: false, bufferLogs: true }`.
 */
export function configureApp(app: NestExpressApplication): void {
  if (!app.getHttpAdapter().getRouteMatchingOptions?.()?.caseSensitive)
    throw new Error(
      'The application must be created with createHttpAdapter() (case-sensitive routes).',
    );
  app.useLogger(app.get(Logger));
  // TRUST_PROXY (SECURITY.md): whose X-Forwarded-For names the client. Sign-in throttling and the
  // audit trail key on req.ip, so trusting too much lets anyone pick their own IP.
  app.set('trust proxy', app.get<AppConfig>(APP_CONFIG).trustProxy);
  app.disable('x-powered-by');
  // docs/architecture.md, Tracing: each request's span first, so all that follows runs in it.
  const tracing = requestTracing();
  if (tracing) app.use(tracing.begin);
  app.use(requestIdMiddleware());
  // docs/architecture.md, What operators see: only with METRICS_PORT set.
  const metrics = app.get(Metrics);
  if (metrics.prom) app.use(httpMetricsMiddleware(metrics.prom));
  app.use(accessLogMiddleware(rootLoggerOf(app)));
  answerClientErrors(app.getHttpServer());
  // helmet where pages are served (web application, docs); the API gets a fixed set.
  app.use(
    securityHeaders(
      helmet({
        contentSecurityPolicy: {
          directives: {
            defaultSrc: ["'self'"],
            // Swagger UI's inline bootstrap script and styles.
            scriptSrc: ["'self'", "'unsafe-inline'"],
            styleSrc: ["'self'", "'unsafe-inline'"],
            imgSrc: ["'self'", 'data:'],
            frameAncestors: ["'self'"],
            formAction: ["'self'"],
          },
        },
        crossOriginEmbedderPolicy: false,
      }),
    ),
  );
  setupViews(app, app.get<AppConfig>(APP_CONFIG).isProduction, {
    // Pages name insurers as people know them; an unknown code is shown as it is.
    insurerName: (code) => insurerName(code),
    // Benefits likewise, by the words of the benefit table; the code stays in a title attribute.
    benefitName: (code) => benefitLabel(code),
  });
  if (app.get<AppConfig>(APP_CONFIG).docsPublic) {
    setupSwaggerPage(app, () => buildOpenApiDocument(app), API_TITLE);
  }
  app.enableShutdownHooks();
}

export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  return buildOpenApiDocumentFor(app, app.get<AppConfig>(APP_CONFIG).publicUrl);
}

export function buildOpenApiDocumentFor(app: INestApplication, publicUrl: string): OpenAPIObject {
  const builder = new DocumentBuilder()
    .setTitle(API_TITLE)
    .setDescription(
      'Vision-insurance eligibility checks (with the V2 benefit tree), out-of-network claims, patient ' +
        'records, webhooks and embedded sessions. Every endpoint needs `Authorization: Api <key>`. ' +
        'Errors: `{"errors": {...}}` for validation (nested like the body), `{"detail": "..."}` otherwise. ' +
        'Every path ends with `/` (a request without it is answered the same). Money travels as ' +
        'decimal strings, printed with four decimals in answers; unset optional fields are `null`.',
    )
    .setVersion('1.0')
    .setLicense('Apache-2.0', 'https://www.apache.org/licenses/LICENSE-2.0')
    .addServer(publicUrl)
    .addSecurity('Api', {
      type: 'apiKey',
      in: 'header',
      name: 'Authorization',
      description: 'The word `Api`, a space, then the key: `Authorization: Api vk_...`',
    })
    .addSecurity('Bearer', {
      type: 'http',
      scheme: 'bearer',
      description: 'The FHIR and MCP doors only: `Authorization: Bearer vk_...`, the same key.',
    })
    .addSecurityRequirements('Api');
  for (const [name, description] of Object.entries(API_TAGS)) builder.addTag(name, description);
  return finishDocument(SwaggerModule.createDocument(app, builder.build()));
}
