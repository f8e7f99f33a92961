import { Audited } from '@/modules/audit';
import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import type { ErrorTree } from '@/platform/kernel/errors';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import type { ClaimRemittanceResponse } from '../api/dto/claim-parts.response';
import { ClaimsService } from '../domain/claims.service';
import { CreateClaimDto } from '../api/dto/create-claim.dto';
import { givenAccountNumber } from '../domain/cms1500-services';
import { lineCharge } from '../domain/claim-charges';
import { ListClaimsQuery } from '../api/dto/list-claims.query';
import { NotifyCustomerDto } from '../api/dto/notify-customer.dto';
import { AccountsService } from '@/modules/accounts';
import { KNOWN_INSURERS } from '@/modules/insurers';
import {
  ADDRESS_FIELDS,
  claimBodyOf,
  PERSON_FIELDS,
  SERVICE_ROWS,
  serviceRowOfLine,
} from './claim-form';
import { NotFoundError } from '@/platform/kernel/errors';
import { prettyX12 } from '@/lib/x12';
import { accountOf, bindForm, FormPage, ListPage, redirectWith, sendPdf } from '@/modules/web';
import { adjustmentsOf, PAYMENT_METHODS } from './web-remittances.controller';

/**
 * Claims (docs/api.md, Claim lifecycle): the list, a claim's page with its status history and submission, its
 * claim form (the PDF of GET .../form/) and the 837P as submitted (GET .../x12/).
 */
@PageController('app/claims')
export class WebClaimsController {
  constructor(
    private readonly claims: ClaimsService,
    private readonly accounts: AccountsService,
  ) {}

  private readonly listPage = new ListPage(
    { view: 'claims.njk', title: 'Claims', section: 'claims', dto: ListClaimsQuery },
    (req, query) => this.claims.list(accountOf(req), query),
    (claims) => ({
      claims: claims.map((c) => ({ ...c, total: formatMoney(c.total_cost, MONEY.statement) })),
    }),
  );

  @PageRead('', { audit: Audited('claim', 'list') })
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.listPage.show(req, res);
  }

  /** The claim form; each service row shows the errors of the line the API numbered for it. */
  private readonly newPage = new FormPage(
    { view: 'claim-new.njk', title: 'New claim', section: 'claims' },
    async (req, { form, errors }) => {
      // The API numbers the lines it was sent; the form shows each error on its own row.
      const lines = serviceRowOfLine(form);
      const byLine = (errors?.services ?? {}) as Record<string, ErrorTree | undefined>;
      const serviceErrors = SERVICE_ROWS.map((n) => {
        const i = lines.indexOf(n);
        return i < 0 ? null : (byLine[String(i)] ?? null);
      });
      return {
        form,
        errors,
        serviceErrors,
        servicesError: (errors?.services as ErrorTree | undefined)?.$ ?? null,
        rows: SERVICE_ROWS,
        personFields: PERSON_FIELDS,
        addressFields: ADDRESS_FIELDS,
        insurers: KNOWN_INSURERS,
        locations: await this.accounts.listLocations(accountOf(req)),
      };
    },
  );

  /** A claim's page; `form` and `errors` are the e-mail form's when it was refused. */
  private readonly claimPage = new FormPage<{ code: string }>(
    { view: 'claim.njk', title: 'Claim', section: 'claims' },
    async (req, { code, form, errors }) => {
      const accountId = accountOf(req);
      const claim = await this.claims.getByCode(accountId, code);
      let x12: string | null = null;
      try {
        x12 = prettyX12(await this.claims.x12(accountId, code));
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
      }
      return {
        title: `Claim ${claim.code}`,
        claim,
        services: claim.services.map((s) => ({
          ...s,
          unit: formatMoney(s.cost, MONEY.statement),
          charge: formatMoney(lineCharge(s), MONEY.statement),
        })),
        total: formatMoney(claim.total_cost, MONEY.statement),
        paid: formatMoney(claim.paid_amount, MONEY.statement),
        accountNumber: givenAccountNumber(claim),
        remittance: claim.remittance ? remittanceView(claim.remittance) : null,
        x12,
        errors,
        email: form.email || claim.patient.email || '',
      };
    },
  );

  @PageRead('new')
  async newForm(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.newPage.show(req, res, {}, { form: { service_0_quantity: '1' }, errors: null });
  }

  /** The API's POST .../claims/ from a form: the same DTO, service and error messages. */
  @PageWrite('new', { audit: Audited('claim', 'create', 'location') })
  async create(@Req() req: Request, @Res() res: Response): Promise<void> {
    await this.newPage.post(req, res, {}, async (form) => {
      const body = await bindForm(CreateClaimDto, claimBodyOf(form));
      const claim = await this.claims.create(accountOf(req), body);
      toClaimPage(req, res, claim.code, `Claim ${claim.code} filed.`);
    });
  }

  @PageRead(':code', { audit: Audited('claim', 'read', 'param:code') })
  show(@Req() req: Request, @Res() res: Response, @Param('code') code: string): Promise<void> {
    return this.claimPage.show(req, res, { code });
  }

  /** "Mark as mailed" (docs/api.md, Errors): the same move as POST .../mailed/; 409 shows its words. */
  @PageWrite(':code/mailed', { audit: Audited('claim', 'update', 'param:code') })
  async mailed(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    await this.claims.markMailed(accountOf(req), code, 'in the web application');
    toClaimPage(req, res, code, `Claim ${code} marked as mailed: it is now submitted.`);
  }

  /** "E-mail the patient": the notify-customer call, with the API's field errors by the field. */
  @PageWrite(':code/notify', { audit: Audited('claim', 'notify', 'param:code') })
  notify(@Req() req: Request, @Res() res: Response, @Param('code') code: string): Promise<void> {
    return this.claimPage.post(req, res, { code }, async (form) => {
      const body = await bindForm(NotifyCustomerDto, { email: form.email });
      await this.claims.notifyCustomer(accountOf(req), code, body.email);
      toClaimPage(req, res, code, `E-mail to ${body.email} queued, with the claim form attached.`);
    });
  }

  @PageRead(':code/form', { audit: Audited('claim', 'read', 'param:code') })
  async form(
    @Req() req: Request,
    @Res() res: Response,
    @Param('code') code: string,
  ): Promise<void> {
    sendPdf(res, await this.claims.form(accountOf(req), code));
  }

  @PageRead(':code/x12', { audit: Audited('claim', 'read', 'param:code') })
  async x12(@Req() req: Request, @Res() res: Response, @Param('code') code: string): Promise<void> {
    const text = await this.claims.x12(accountOf(req), code);
    res.type('text/plain; charset=utf-8').send(text);
  }
}

/** Back to the claim's page, saying what was done. */
function toClaimPage(req: Request, res: Response, code: string, message: string): void {
  redirectWith(req, res, `/app/claims/${encodeURIComponent(code)}/`, message);
}

/** docs/api.md, Claim reports and remittances: the claim page's remittance, amounts in dollars, every adjustment in words. */
function remittanceView(r: ClaimRemittanceResponse) {
  return {
    paid: formatMoney(r.paid_amount, MONEY.statement),
    patient: formatMoney(r.patient_responsibility, MONEY.statement),
    charge: formatMoney(r.charge, MONEY.statement),
    method: PAYMENT_METHODS[r.payment_method] ?? r.payment_method,
    adjustments: adjustmentsOf(r),
  };
}
