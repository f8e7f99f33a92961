import { applyDecorators, Controller } from '@nestjs/common';
import { ApiSecurity, ApiTags } from '@nestjs/swagger';

/**
 * An API controller (docs/api.md, Authentication): its routes under `path`, listed in the
 * document under `tag`, each behind the `Api` key.
 */
export function ApiController(tag: string, path: string): ClassDecorator {
  return applyDecorators(ApiTags(tag), ApiSecurity('Api'), Controller(path));
}
