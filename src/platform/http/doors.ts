import { applyDecorators, Controller, SetMetadata } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';

/**
 * The paths answered as an API, with a key, the body pipeline and the API's headers: the JSON
 * API under /api/, the FHIR door under /fhir/ and the MCP door at /mcp (docs/api.md,
 * Authentication). Everything else is a page, a probe or a static file.
 */
export function isApiPath(path: string): boolean {
  return (
    path.startsWith('/api/') || path.startsWith('/fhir/') || path === '/mcp' || path === '/mcp/'
  );
}

/** Metadata of a controller whose routes take `Authorization: Bearer <key>` besides `Api <key>`. */
export const BEARER_ACCEPTED = 'vision:bearerAccepted';

/**
 * A door for clients written for another standard (FHIR, MCP), which send the key as
 * `Authorization: Bearer <key>`: its routes take that scheme as well as `Api <key>`, with the
 * same keys and scopes (docs/api.md, Authentication). The JSON API keeps refusing `Bearer`.
 */
export function DoorController(tag: string, path: string): ClassDecorator {
  return applyDecorators(
    ApiTags(tag),
    ApiSecurity('Api'),
    ApiSecurity('Bearer'),
    SetMetadata(BEARER_ACCEPTED, true),
    Controller(path),
  );
}
