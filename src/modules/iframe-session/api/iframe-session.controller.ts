import { Body, HttpCode, Post, Req } from '@nestjs/common';
import { ApiOkResponse, ApiOperation } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import { ApiStandardErrors } from '@/platform/http/api-docs';
import { ErrorCollector, ForbiddenError } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import type { AppRequest } from '@/platform/kernel/request-context';
import { CreateIframeSessionDto, IframeSessionResponse } from './dto/iframe-session.dto';
import {
  type CounterTarget,
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
      "`insurers`, `passwords`, `schedule` (the day's appointments of a location and their coverage; the key " +
      'also needs `appointments:write`) or `quote` (the Counter of `person_id` of `request_uid`). The account must be enabled for embedded sessions (arranged with support), ' +
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
    return {
      iframe_url: await this.sessions.create(
        auditContextOf(req)!,
        body.entry_point,
        counterOf(body),
      ),
    };
  }
}

/** `quote` names its request and person; no other entry point takes them (400 otherwise). */
function counterOf(body: CreateIframeSessionDto): CounterTarget | null {
  const errors = new ErrorCollector();
  const uid = body.request_uid ?? null;
  const person = body.person_id ?? null;
  if (body.entry_point === 'quote') {
    if (!uid) errors.add('request_uid', MSG.required);
    if (person === null) errors.add('person_id', MSG.required);
  } else {
    const only = 'Only with entry_point quote.';
    if (uid !== null) errors.add('request_uid', only);
    if (person !== null) errors.add('person_id', only);
  }
  errors.throwIfAny();
  return uid && person !== null ? { requestUid: uid, personId: person } : null;
}
