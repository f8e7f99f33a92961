import { Body, Param, Req, Res } from '@nestjs/common';
import { ApiBody, ApiExtraModels, ApiOkResponse, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiController } from '@/platform/http/api-controller';
import { ApiNoETag } from '@/platform/http/api-document-details';
import { type ApiErrorArg, ApiRead, ApiWrite } from '@/platform/http/api-routes';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import { QuotesService } from '../domain/quotes.service';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { QuoteResponse } from './dto/quote.response';
import {
  EXAMPLE_QUOTE_REQUEST,
  EXAMPLE_QUOTE_RESPONSE,
  EXAMPLE_QUOTE_STORED_REQUEST,
} from './quote.examples';

const NOT_FOUND: ApiErrorArg = [
  404,
  { detail: 'Quote 3f0c2a9e-8d6b-4c1e-9a57-2b4d6e8f0a13 not found.' },
];
const ID = { name: 'id', type: String, description: 'The `id` of a quote of your account.' };

/** The counter (docs/api.md, The counter): what the patient pays for what they order. */
@ApiExtraModels(QuoteResponse)
@ApiController('Quotes', 'api/auth/v1/quotes')
export class QuotesController {
  constructor(private readonly quotes: QuotesService) {}

  @ApiWrite('', 201, {
    scope: 'eligibility:read',
    audit: Audited('quote', 'create', 'result:id'),
    errors: [
      [
        400,
        {
          errors: {
            patient_age: { $: ['This field is required.'] },
            order: { lenses: { type: { $: ['"bifocal" is not a valid choice.'] } } },
          },
        },
      ],
      [404, { detail: 'Eligibility request visit-2026-11-21-0042 not found.' }],
    ],
    summary: 'Quote what the patient pays for an order (the counter)',
    description:
      "On a stored result's person plan (`request_uid` + `person_id`) or an inline V2 `plan` " +
      "with its `materials`, priced from the plan's materials price list alone, in network. One " +
      'rule prices every line from its retail r (c copayment, a allowance, d discount percent, ' +
      '0 when absent):\n\n' +
      '1. `max_age` stated and the patient at most that age: the patient pays 0;\n' +
      '2. else `price` stated: min(price, r);\n' +
      '3. else no copayment, allowance or discount stated: `not_estimable` (`max_age` alone and ' +
      'an older patient: r);\n' +
      '4. else only a copayment: min(c, r);\n' +
      '5. else min(r, c + max(0, r − c − a) × (1 − d/100)) with the discount on the overage (the ' +
      'default), min(r, c + max(0, r × (1 − d/100) − a)) on the retail.\n\n' +
      'plan_covers = r − patient_pays, rounded half up to the cent per line. Lens options follow ' +
      'the lenses and the fitting the contact lenses; of both sides of an `in_lieu_of` pair the ' +
      'plan covers `in_lieu_keep`, else the side with the lower patient total. A benefit not ' +
      'available on `date_of_service` (frames, spectacle lenses, contact lenses: their next ' +
      'eligible dates) covers nothing, saying until when. What the list does not state is ' +
      '`not_estimable`, never guessed, and stays out of the totals; a plan without `materials` ' +
      'makes every line not estimable. The quote is stored (GET it, or print it as a PDF).',
  })
  @ApiBody({
    type: CreateQuoteDto,
    examples: {
      inlinePlan: {
        summary: 'A child of 9: frame, premium progressives tier 2, anti-reflective, polycarbonate',
        value: EXAMPLE_QUOTE_REQUEST,
      },
      storedResult: {
        summary: 'The same order on a person of a complete eligibility result',
        value: EXAMPLE_QUOTE_STORED_REQUEST,
      },
    },
  })
  @ApiResponse({
    status: 201,
    description: 'The quote, as stored.',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/QuoteResponse' },
        example: EXAMPLE_QUOTE_RESPONSE,
      },
    },
  })
  create(@Req() req: AppRequest, @Body() body: CreateQuoteDto): Promise<QuoteResponse> {
    return this.quotes.create(req.auth!.accountId, body);
  }

  @ApiRead(':id', {
    scope: 'eligibility:read',
    audit: Audited('quote', 'read', 'param:id'),
    summary: 'A quote',
    description: 'The quote as its POST answered it; another account’s is not found.',
    param: ID,
    errors: [NOT_FOUND],
  })
  @ApiOkResponse({
    description: 'The quote.',
    content: {
      'application/json': {
        schema: { $ref: '#/components/schemas/QuoteResponse' },
        example: EXAMPLE_QUOTE_RESPONSE,
      },
    },
  })
  async get(@Req() req: AppRequest, @Param('id') id: string): Promise<QuoteResponse> {
    return (await this.quotes.get(req.auth!.accountId, id)).body;
  }

  @ApiRead(':id/pdf', {
    scope: 'eligibility:read',
    audit: Audited('quote', 'read', 'param:id'),
    summary: 'A quote printed for the patient (PDF)',
    description:
      'One US Letter page: the practice, the patient, the plan, each line with what the plan ' +
      'covers and what the patient pays, the lines not estimated, the totals, that it is an ' +
      'estimate and not a guarantee of payment, and the date. Each download is an audit event.',
    param: ID,
    errors: [NOT_FOUND],
  })
  @ApiNoETag()
  @ApiOkResponse({
    description: 'The quote, one page.',
    content: { 'application/pdf': { schema: { type: 'string', format: 'binary' } } },
  })
  async pdf(@Req() req: AppRequest, @Param('id') id: string, @Res() res: Response): Promise<void> {
    const { filename, pdf } = await this.quotes.pdf(req.auth!.accountId, id);
    // Printed anew at each download: no ETag. Written in one `res.end`, which the audit trail
    // holds until its event is stored.
    res.statusCode = 200;
    res.setHeader('Content-Type', 'application/pdf');
    res.setHeader('Content-Length', pdf.length);
    res.setHeader('Content-Disposition', `inline; filename="${filename}"`);
    res.end(pdf);
  }
}
