import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { CreateEstimateDto } from '../api/dto/create-estimate.dto';
import type { Estimate } from '../domain/estimate.types';
import { EstimatesService, StoredPerson } from '../domain/estimates.service';
import { benefitRows } from '@/lib/benefits';
import { estimateForPeople } from './estimate-words';
import {
  COMMON_SERVICES,
  emptyForm,
  EstimateForm,
  placeErrors,
  readForm,
  toRequestBody,
} from './estimate-form';
import { accountOf, bindForm, formFields, renderPage, submitForm } from '@/modules/web';
import { Audited } from '@/modules/audit';

/** The page's path: the check and the person of its benefit table. */
interface PersonPath {
  uid: string;
  personId: string;
}

/** What the page shows of the form: as typed, the messages of its refusal, or its estimate. */
interface Shown {
  form: EstimateForm;
  messages?: string[];
  estimate?: Estimate;
}

/**
 * "Estimate reimbursement" for one person of a benefit table (docs/api.md, Estimates): a plain form (works
 * without JavaScript; "Add a line" posts back) checked with the API's DTO and answered by the
 * API's service.
 */
@PageController('app/eligibility/:uid/persons/:personId/estimate')
export class WebEstimatesController {
  constructor(private readonly estimates: EstimatesService) {}

  @PageRead('', { audit: Audited('eligibility_request', 'read', 'param:uid') })
  async show(@Req() req: Request, @Res() res: Response, @Param() path: PersonPath): Promise<void> {
    const person = await this.estimates.pagePerson(accountOf(req), path.uid, path.personId);
    this.render(req, res, path.uid, person, { form: emptyForm() });
  }

  @PageWrite('', { audit: Audited('estimate', 'create', 'param:uid') })
  async estimate(
    @Req() req: Request,
    @Res() res: Response,
    @Param() path: PersonPath,
  ): Promise<void> {
    const person = await this.estimates.pagePerson(accountOf(req), path.uid, path.personId);
    const fields = formFields(req.body);
    const form = readForm(fields, fields.action === 'add');
    if (fields.action === 'add') return this.render(req, res, path.uid, person, { form });
    const { body, rowOf } = toRequestBody(form, path.uid, path.personId);
    await submitForm(
      res,
      async () => {
        const value = await bindForm(CreateEstimateDto, body);
        const estimate = await this.estimates.estimate(accountOf(req), value);
        this.render(req, res, path.uid, person, { form, estimate });
      },
      (errors) =>
        this.render(req, res, path.uid, person, {
          form,
          messages: placeErrors(form, errors, rowOf),
        }),
    );
  }

  private render(
    req: Request,
    res: Response,
    uid: string,
    person: StoredPerson,
    { form, messages = [], estimate }: Shown,
  ): void {
    // The benefits of this person's plan, to estimate a line on one of them by hand.
    const benefits = benefitRows(person.plan).map((r) => ({
      code: r.code,
      label: r.label,
      depth: r.depth,
    }));
    renderPage(req, res, 'estimate.njk', {
      title: 'Estimate reimbursement',
      section: 'eligibility',
      uid,
      person,
      form,
      messages,
      estimate: estimate
        ? estimateForPeople(
            estimate,
            benefits.map((b) => b.code),
          )
        : null,
      common: COMMON_SERVICES,
      benefits,
      action: `/app/eligibility/${encodeURIComponent(uid)}/persons/${person.id}/estimate`,
    });
  }
}
