import { Body, Param, Query, Req, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiBody, ApiConsumes } from '@nestjs/swagger';
import { ApiController } from '@/platform/http/api-controller';
import {
  type ApiRouteDoc,
  ApiRead,
  ApiWrite,
  ApiX12Answer,
  INVALID_CURSOR,
  sendText,
} from '@/platform/http/api-routes';
import { MIB } from '@/platform/http/body/body-limits';
import { ValidationFailed } from '@/platform/kernel/errors';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import { X12ParseError } from '@/lib/x12';
import { ClaimReportsService } from '../domain/claim-reports.service';
import { ListRemittancesQuery } from './dto/list-remittances.query';
import {
  ClaimReportAcceptedResponse,
  RemittanceListResponse,
  RemittanceResponse,
} from './dto/remittance.response';

const REMITTANCE_ID = '5b1f0d4e-2c1a-4f7e-9d51-0c3b7f7e2a10';
/** A GET of one remittance by its id. */
const READ_ONE: Omit<ApiRouteDoc, 'summary'> = {
  scope: 'claims:read',
  audit: Audited('remittance', 'read', 'param:id'),
  param: { name: 'id', example: REMITTANCE_ID },
  errors: [[404, { detail: `Remittance ${REMITTANCE_ID} not found.` }]],
};

@ApiController('Claims', 'api/auth/v1/claim-reports')
export class ClaimReportsController {
  constructor(private readonly reports: ClaimReportsService) {}

  @ApiWrite('', 202, {
    scope: 'claims:write',
    // The largest 835 a small practice receives is far below 5 MiB; as X12 text or in JSON.
    body: { limitBytes: 5 * MIB, text: true },
    audit: Audited('claim_report', 'create', 'result:id'),
    answer: ClaimReportAcceptedResponse,
    errors: [
      [
        400,
        {
          errors: {
            x12: {
              $: ['X12: an interchange starts with ISA, this text starts with "hello, thi"'],
            },
          },
        },
      ],
      [
        429,
        {
          detail:
            'This account has uploaded 200 claim reports in the last 24 hours, the most it may; ' +
            'upload again later.',
        },
      ],
    ],
    summary: 'Upload a claim report (999, TA1, 277CA or 835)',
    description:
      'For clearinghouses that deliver reports by SFTP or e-mail (docs/api.md, Claim reports and remittances). The body is the ' +
      'X12 interchange as `text/plain`, or JSON `{"x12": "..."}`. A 999 or TA1 rejection moves ' +
      "the claims of the rejected 837P to `rejected`; a 277CA's STC A1/A2/A5 to `accepted`, " +
      'A3/A4/A6-A8 to `rejected`; an 835 CLP (matched by CLP01, the claim code) to `paid`, ' +
      "`denied` or `reversed`, with the claim's `remittance`. Only the account's claims are " +
      'matched. The same report uploaded again changes nothing (the first answer is repeated, ' +
      'the file is not read again); a remittance is stored once per payer and trace number. A ' +
      'file that is not X12, or has more than 100,000 segments → 400 with the parse error ' +
      '(segment and reason), and nothing is stored. A body over 5 MiB → 413. An account stores ' +
      'at most `CLAIM_REPORTS_MAX_PER_DAY` uploads (default 200) in 24 hours; past it → 429 ' +
      'with `Retry-After`.',
  })
  @ApiConsumes('text/plain', 'application/json')
  @ApiBody({
    schema: {
      oneOf: [
        { type: 'string', example: 'ISA*00*          *00*          *ZZ*VISIONPAYER    *...~' },
        {
          type: 'object',
          required: ['x12'],
          properties: { x12: { type: 'string', example: 'ISA*00*...~' } },
        },
      ],
    },
  })
  async upload(
    @Req() req: AppRequest,
    @Body() body: unknown,
  ): Promise<ClaimReportAcceptedResponse> {
    const text =
      typeof body === 'string'
        ? body
        : body && typeof body === 'object' && typeof (body as { x12?: unknown }).x12 === 'string'
          ? (body as { x12: string }).x12
          : null;
    if (text === null || text.trim() === '')
      throw new ValidationFailed({
        x12: { $: ['Send the X12 interchange as text/plain, or as {"x12": "..."}.'] },
      });
    try {
      const { id, type, claims_matched, claims_unmatched } = await this.reports.ingest(text, {
        accountId: req.auth!.accountId,
        source: 'upload',
      });
      return { id, type, claims_matched, claims_unmatched };
    } catch (e) {
      if (e instanceof X12ParseError) throw new ValidationFailed({ x12: { $: [e.message] } });
      throw e;
    }
  }
}

@ApiController('Claims', 'api/auth/v1/remittances')
export class RemittancesController {
  constructor(private readonly reports: ClaimReportsService) {}

  @ApiRead('', {
    scope: 'claims:read',
    audit: Audited('remittance', 'list'),
    summary: 'List remittances (835 payments)',
    description: 'Newest first, one per payer and trace number (TRN02).',
    answer: RemittanceListResponse,
    errors: [INVALID_CURSOR],
  })
  list(
    @Req() req: AppRequest,
    @Query() query: ListRemittancesQuery,
  ): Promise<RemittanceListResponse> {
    return this.reports.listRemittances(req.auth!.accountId, query);
  }

  @ApiRead(':id', {
    ...READ_ONE,
    summary: 'Get a remittance',
    description:
      'The payment and every claim it pays, denies or reverses (`claim_code` null when CLP01 ' +
      'names no claim of the account), with adjustments (CARC) and remarks (RARC) in words.',
    answer: RemittanceResponse,
  })
  get(@Req() req: AppRequest, @Param('id') id: string): Promise<RemittanceResponse> {
    return this.reports.getRemittance(req.auth!.accountId, id);
  }

  @ApiRead(':id/x12', { ...READ_ONE, summary: 'Get the 835 a remittance came in' })
  @ApiX12Answer(
    "The interchange as uploaded; for one the poller took, only this account's part of it (its own CLP loops).",
    'ISA*00*          *00*          *ZZ*VISIONPAYER    *...~',
  )
  async x12(
    @Req() req: AppRequest,
    @Param('id') id: string,
    @Res({ passthrough: true }) res: Response,
  ): Promise<string> {
    return sendText(res, await this.reports.remittanceX12(req.auth!.accountId, id));
  }
}
