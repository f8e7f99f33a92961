import { BenefitHistory, CheckHooks } from '@/modules/eligibility';
import { QuotesModule } from '@/modules/quotes';
import type { CreateQuoteDto } from '@/modules/quotes/api/dto/create-quote.dto';
import { EXAMPLE_QUOTE_REQUEST, EXAMPLE_QUOTE_RESPONSE } from '@/modules/quotes/api/quote.examples';
import { QuotesService } from '@/modules/quotes/domain/quotes.service';
import { createPractice } from '../support/factories';
import { bootModule, ModuleContext } from '../support/module';
import { pdfText } from '../support/pdf-text';

/**
 * The quotes module booted alone (test/support/module.ts), without its pages
 * (QuotesPagesModule): docs/api.md's inline example priced, stored, read back and printed in
 * its account only.
 */
describe('quotes module, alone', () => {
  let t: ModuleContext;
  let quotes: QuotesService;
  let accountId: string;
  let otherId: string;
  const example = EXAMPLE_QUOTE_REQUEST as unknown as CreateQuoteDto;

  beforeAll(async () => {
    t = await bootModule(QuotesModule, { openHooks: [CheckHooks, BenefitHistory] });
    quotes = t.ctx.get(QuotesService);
    ({ accountId } = await createPractice(t.ctx));
    ({ accountId: otherId } = await createPractice(t.ctx));
  });
  afterAll(() => t.close());

  it('boots with eligibility (and what it imports), without the web shell', () => {
    expect(t.booted).toEqual([
      'AccountsModule',
      'AuditModule',
      'EligibilityModule',
      'EstimatesModule',
      'InsurersModule',
      'QuotesModule',
      'RateLimitModule',
      'VerificationModule',
      'WebhooksModule',
    ]);
  });

  it("prices docs/api.md's inline example as it says, storing nothing", async () => {
    const { answer } = await quotes.price(accountId, example);
    const { id: _id, ...expected } = EXAMPLE_QUOTE_RESPONSE;
    expect(answer).toEqual(expected);
    const [{ n }] = await t.db.query('SELECT count(*)::int AS n FROM quotes');
    expect(n).toBe(0);
  });

  it('stores a quote, reads it and prints it in its account only', async () => {
    const made = await quotes.create(accountId, example);
    expect(made.patient_pays).toBe(EXAMPLE_QUOTE_RESPONSE.patient_pays);
    expect((await quotes.get(accountId, made.id)).body).toEqual(made);
    const { pdf } = await quotes.pdf(accountId, made.id);
    const printed = await pdfText(pdf);
    expect(printed.pages).toBe(1);
    expect(printed.text).toContain('$186.20');
    await expect(quotes.get(otherId, made.id)).rejects.toMatchObject({ status: 404 });
    await expect(quotes.pdf(otherId, made.id)).rejects.toMatchObject({ status: 404 });
  });
});
