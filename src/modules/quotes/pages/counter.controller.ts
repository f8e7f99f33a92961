import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import type { ErrorTree } from '@/platform/kernel/errors';
import { todayIso } from '@/platform/kernel/time';
import { Audited } from '@/modules/audit';
import { type StoredPerson, EstimatesService } from '@/modules/estimates';
import {
  accountOf,
  bindForm,
  EmbeddedReach,
  formFields,
  renderPage,
  sendPdf,
  submitForm,
} from '@/modules/web';
import { CreateQuoteDto } from '../api/dto/create-quote.dto';
import { QuotesService } from '../domain/quotes.service';
import type { PricedOrder } from '../domain/quote.types';
import {
  COUNTER_LENS_TYPES,
  COUNTER_OPTIONS,
  COUNTER_TIERS,
  counterBody,
  counterErrors,
} from './counter-form';

interface PersonPath {
  uid: string;
  personId: string;
}

/**
 * The Counter (docs/api.md, The counter): what one person of a check pays for the glasses and
 * contacts they order, priced by the API's service from the plan's price list. A plain form
 * (works without JavaScript: "Price it" posts back; with it, the totals follow each change);
 * "Print" stores the quote (an audit event) and opens its one-page PDF.
 */
/**
 * Embedded sessions reach the Counter of a check of their own (an `add_patient` session's, or
 * the one a `quote` link opened) and the quotes they print there.
 */
const OF_CHECK = EmbeddedReach('any', { kind: 'eligibility', from: 'param:uid' });

@PageController('app')
export class WebCounterController {
  constructor(
    private readonly quotes: QuotesService,
    private readonly estimates: EstimatesService,
  ) {}

  @PageRead('eligibility/:uid/persons/:personId/counter', {
    audit: Audited('eligibility_request', 'read', 'param:uid'),
    reach: OF_CHECK,
  })
  async show(@Req() req: Request, @Res() res: Response, @Param() path: PersonPath): Promise<void> {
    const person = await this.estimates.pagePerson(accountOf(req), path.uid, path.personId);
    this.render(req, res, path, person, { date_of_service: todayIso() });
  }

  @PageWrite('eligibility/:uid/persons/:personId/counter', {
    audit: Audited('eligibility_request', 'read', 'param:uid'),
    reach: OF_CHECK,
  })
  async price(@Req() req: Request, @Res() res: Response, @Param() path: PersonPath): Promise<void> {
    await this.submit(req, res, path, async (dto, person, fields) => {
      // Only a printed quote is stored (and audited as one): the totals themselves are a read.
      const { answer } = await this.quotes.price(accountOf(req), dto);
      res.status(200);
      this.render(req, res, path, person, fields, answer);
    });
  }

  @PageWrite('eligibility/:uid/persons/:personId/counter/print', {
    audit: Audited('quote', 'create', 'location'),
    reach: OF_CHECK,
  })
  async print(@Req() req: Request, @Res() res: Response, @Param() path: PersonPath): Promise<void> {
    await this.submit(req, res, path, async (dto) => {
      const quote = await this.quotes.create(accountOf(req), dto);
      res.redirect(303, `/app/quotes/${quote.id}`);
    });
  }

  /** The form checked by the API's DTO, then `done`; refused, the page again with its errors. */
  private async submit(
    req: Request,
    res: Response,
    path: PersonPath,
    done: (
      dto: CreateQuoteDto,
      person: StoredPerson,
      fields: Record<string, string>,
    ) => Promise<void>,
  ): Promise<void> {
    const person = await this.estimates.pagePerson(accountOf(req), path.uid, path.personId);
    const fields = formFields(req.body);
    const { body, fieldOf } = counterBody(fields, path.uid, person.id);
    await submitForm(
      res,
      async () => done(await bindForm(CreateQuoteDto, body), person, fields),
      (errors) => this.render(req, res, path, person, fields, null, counterErrors(errors, fieldOf)),
    );
  }

  @PageRead('quotes/:id', {
    audit: Audited('quote', 'read', 'param:id'),
    reach: EmbeddedReach('any', { kind: 'quote', from: 'param:id' }),
  })
  async pdf(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    sendPdf(res, await this.quotes.pdf(accountOf(req), id));
  }

  private render(
    req: Request,
    res: Response,
    path: PersonPath,
    person: StoredPerson,
    fields: Record<string, string>,
    quote: (PricedOrder & { materials_source: string | null }) | null = null,
    errors: ErrorTree | null = null,
  ): void {
    renderPage(req, res, 'counter.njk', {
      title: `Counter: ${person.fullName}`,
      section: 'eligibility',
      uid: path.uid,
      person,
      priced: person.plan.materials ? true : false,
      fields,
      quote,
      errors,
      lensTypes: COUNTER_LENS_TYPES,
      options: COUNTER_OPTIONS,
      tiers: COUNTER_TIERS,
      action: `/app/eligibility/${encodeURIComponent(path.uid)}/persons/${person.id}/counter`,
    });
  }
}
