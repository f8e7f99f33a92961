import { Body, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { ApiStandardErrors } from '@/platform/http/api-docs';
import { ForbiddenError } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { CreateIframeSessionDto, IframeSessionResponse } from './dto/iframe-session.dto';
import {
  ENTRY_POINT_SCOPES,
  IframeSessionService,
  NO_FRAMING_ORIGIN,
} from '../domain/iframe-session.service';
import { auditContextOf, NotPatientData } from '@/modules/audit';
import { EMBED_SCOPES, grants, RequireScope, scopeRefusal } from '@/modules/auth';

const EMBED_ACTION = 'open embedded sessions';

@ApiController('Embedded session', 'api/auth/v1/iframe-session')
export class IframeSessionController {
  constructor(private readonly sessions: IframeSessionService) {}

  @Post()
  @RequireScope([...EMBED_SCOPES], EMBED_ACTION)
  @NotPatientData()
  @HttpCode(200)
  @ApiOperation({
    summary: 'Create an embedded session',
    description:
      "Returns a URL that opens the web application in an iframe with the account's user signed in, at `add_patient`, " +
      "`insurers`, `passwords` or `schedule` (the day's appointments of a location and their coverage; the key " +
      'also needs `appointments:write`). The account must be enabled for embedded sessions (arranged with support), ' +
      'and name at least one origin allowed to frame the web application (Settings, Embedding): ' +
      'without one the answer is 409, since a browser would refuse the frame.',
  })
  @ApiOkResponse({ type: IframeSessionResponse })
  @ApiStandardErrors(
    [400, { errors: { entry_point: { $: ['"home" is not a valid choice.'] } } }],
    [403, { detail: 'Iframe is not activated for the current user.' }],
    [409, { detail: NO_FRAMING_ORIGIN }],
  )
  async create(
    @Req() req: AppRequest,
    @Body() body: CreateIframeSessionDto,
  ): Promise<IframeSessionResponse> {
    // An entry point whose pages reach another area needs that area's write scope too.
    const extra = ENTRY_POINT_SCOPES[body.entry_point] ?? [];
    if (extra.some((scope) => !grants(req.auth!.scopes, scope)))
      throw new ForbiddenError(scopeRefusal(EMBED_ACTION));
    return { iframe_url: await this.sessions.create(auditContextOf(req)!, body.entry_point) };
  }
}
