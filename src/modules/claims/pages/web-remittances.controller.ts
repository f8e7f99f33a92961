import { Param, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead } from '@/platform/http/page-routes';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import { Audited } from '@/modules/audit';
import { ClaimReportsService } from '../reports/domain/claim-reports.service';
import { ListRemittancesQuery } from '../reports/api/dto/list-remittances.query';
import { accountOf, ListPage, renderPage } from '@/modules/web';

/** What BPR04 means, for people. */
export const PAYMENT_METHODS: Readonly<Record<string, string>> = {
  ACH: 'EFT (ACH)',
  CHK: 'Check',
  BOP: 'Financial institution option',
  FWT: 'Wire transfer',
  NON: 'No payment',
};

/** What CLP02 means, for people. */
export const CLAIM_PAYMENT_STATUSES: Readonly<Record<string, string>> = {
  '1': 'Processed as primary',
  '2': 'Processed as secondary',
  '3': 'Processed as tertiary',
  '4': 'Denied',
  '19': 'Processed as primary, forwarded to another payer',
  '20': 'Processed as secondary, forwarded to another payer',
  '21': 'Processed as tertiary, forwarded to another payer',
  '22': 'Reversal of a previous payment',
  '23': 'Not our claim, forwarded to another payer',
  '25': 'Predetermination only, no payment',
};

/** A paid claim's adjustments, the claim's then its lines', each with its line and in dollars. */
export function adjustmentsOf<A extends { amount: string }>(c: {
  adjustments: A[];
  service_lines: { codes: string[]; adjustments: A[] }[];
}) {
  const inDollars = (line: string) => (a: A) => ({
    ...a,
    line,
    amount: formatMoney(a.amount, MONEY.statement),
  });
  return [
    ...c.adjustments.map(inDollars('Claim')),
    ...c.service_lines.flatMap((l) => l.adjustments.map(inDollars(l.codes.join(':')))),
  ];
}

/**
 * Remittances (docs/api.md, Claim reports and remittances): the list of 835 payments and a page per remittance with the
 * payment, each claim it pays, denies or reverses (matched to its claim page, or marked
 * unmatched), adjustments and remarks in words, and provider adjustments.
 */
@PageController('app/remittances')
export class WebRemittancesController {
  constructor(private readonly reports: ClaimReportsService) {}

  private readonly listPage = new ListPage(
    {
      view: 'remittances.njk',
      title: 'Remittances',
      section: 'remittances',
      dto: ListRemittancesQuery,
    },
    (req, query) => this.reports.listRemittances(accountOf(req), query),
    (remittances) => ({
      remittances: remittances.map((r) => ({
        ...r,
        amount: formatMoney(r.payment_amount, MONEY.statement),
        method: PAYMENT_METHODS[r.payment_method] ?? r.payment_method,
      })),
    }),
  );

  @PageRead('', { audit: Audited('remittance', 'list') })
  list(@Req() req: Request, @Res() res: Response): Promise<void> {
    return this.listPage.show(req, res);
  }

  @PageRead(':id', { audit: Audited('remittance', 'read', 'param:id') })
  async show(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const r = await this.reports.getRemittance(accountOf(req), id);
    renderPage(req, res, 'remittance.njk', {
      title: `Remittance ${r.trace_number}`,
      section: 'remittances',
      remittance: r,
      amount: formatMoney(r.payment_amount, MONEY.statement),
      method: PAYMENT_METHODS[r.payment_method] ?? r.payment_method,
      claims: r.claims.map((c) => ({
        ...c,
        status: CLAIM_PAYMENT_STATUSES[c.status_code] ?? `Unknown code ${c.status_code}`,
        charge: formatMoney(c.charge, MONEY.statement),
        paid: formatMoney(c.paid_amount, MONEY.statement),
        patient: formatMoney(c.patient_responsibility, MONEY.statement),
        adjustments: adjustmentsOf(c),
      })),
      providerAdjustments: r.provider_adjustments.map((p) => ({
        ...p,
        amount: formatMoney(p.amount, MONEY.statement),
      })),
    });
  }

  @PageRead(':id/x12', { audit: Audited('remittance', 'read', 'param:id') })
  async x12(@Req() req: Request, @Res() res: Response, @Param('id') id: string): Promise<void> {
    const text = await this.reports.remittanceX12(accountOf(req), id);
    res.type('text/plain; charset=utf-8').send(text);
  }
}
