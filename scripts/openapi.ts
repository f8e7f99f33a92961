import 'reflect-metadata';
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../src/app.module';
import { buildOpenApiDocumentFor, createHttpAdapter } from '../src/app.setup';

/**
 * `npm run openapi`: writes the checked-in OpenAPI document (openapi.json) and the client
 * package's types generated from it (clients/typescript/src/schema.d.ts). The document is the one
 * a running service serves at /docs-json, with the default PUBLIC_URL as its server.
 * test/openapi-drift.io.spec.ts regenerates both in memory and fails when either differs.
 */

const run = promisify(execFile);
const ROOT = join(__dirname, '..');

export const DOCUMENT_FILE = join(ROOT, 'openapi.json');
export const CLIENT_TYPES_FILE = join(ROOT, 'clients', 'typescript', 'src', 'schema.d.ts');
/** The server the checked-in document names (PUBLIC_URL's default; a service names its own). */
export const DOCUMENT_SERVER = 'http://localhost:3000';

/**
 * The document's text. The app is created in preview mode: its modules and controllers are
 * scanned, nothing is instantiated, so neither PostgreSQL nor Redis is needed.
 */
export async function documentText(): Promise<string> {
  const app = await NestFactory.create(AppModule, createHttpAdapter(), {
    preview: true,
    logger: false,
    bodyParser: false,
  });
  try {
    return `${JSON.stringify(buildOpenApiDocumentFor(app, DOCUMENT_SERVER), null, 2)}\n`;
  } finally {
    await app.close();
  }
}

/** The document without its examples: they would double the client package's size. */
function withoutExamples(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutExamples);
  if (typeof node !== 'object' || node === null) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([key]) => key !== 'example' && key !== 'examples')
      .map(([key, value]) => [key, withoutExamples(value)]),
  );
}

/**
 * The JSON API's part of the document: the doors (FHIR R4, MCP) are for their standards' own
 * clients (docs/api.md, Authentication), not the package's.
 */
function jsonApiOnly(document: { paths: Record<string, unknown> }): unknown {
  const paths = Object.entries(document.paths).filter(([p]) => /^\/(api|health)\//.test(p));
  return { ...document, paths: Object.fromEntries(paths) };
}

/** The client's types for a document's text, as openapi-typescript prints them. */
export async function clientTypesText(document: string): Promise<string> {
  const dir = await mkdtemp(join(tmpdir(), 'vision-openapi-'));
  try {
    const input = join(dir, 'openapi.json');
    await writeFile(input, JSON.stringify(withoutExamples(jsonApiOnly(JSON.parse(document)))));
    const cli = join(ROOT, 'node_modules', 'openapi-typescript', 'bin', 'cli.js');
    const { stdout } = await run(process.execPath, [cli, input], {
      cwd: ROOT,
      maxBuffer: 64 * 1024 * 1024,
    });
    return (
      '// Generated from openapi.json (its JSON API, without examples) by `npm run openapi`, with\n' +
      '// openapi-typescript. Do not edit.\n' +
      stdout
    );
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const document = await documentText();
  await writeFile(DOCUMENT_FILE, document);
  await writeFile(CLIENT_TYPES_FILE, await clientTypesText(document));
  process.stdout.write('Wrote openapi.json and clients/typescript/src/schema.d.ts\n');
}

if (require.main === module) {
  main().catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
    process.exit(1);
  });
}
