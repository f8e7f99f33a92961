import type { OpenAPIObject } from '@nestjs/swagger';
import { documentHttpDetails } from './api-document-details';

describe('the HTTP details of the OpenAPI document', () => {
  it('documents If-None-Match on a GET without an example (Swagger UI would send it)', () => {
    const document = {
      openapi: '3.0.0',
      info: { title: 't', version: '1' },
      paths: {
        '/api/auth/v1/locations/': { get: { responses: { '200': { description: 'ok' } } } },
      },
    } as unknown as OpenAPIObject;
    documentHttpDetails(document);
    const parameters = (document.paths['/api/auth/v1/locations/'].get?.parameters ?? []) as {
      name: string;
      example?: unknown;
      schema?: { example?: unknown };
    }[];
    const ifNoneMatch = parameters.find((p) => p.name === 'If-None-Match');
    expect(ifNoneMatch).toMatchObject({
      in: 'header',
      required: false,
      schema: { type: 'string' },
    });
    expect(ifNoneMatch?.example).toBeUndefined();
    expect(ifNoneMatch?.schema?.example).toBeUndefined();
  });
});
