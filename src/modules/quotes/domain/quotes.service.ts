import { Injectable } from '@nestjs/common';
import {
  isTiered,
  type MaterialsList,
  type MaterialsRule,
  type MaterialsSource,
  planFromJson,
  type PlanJson,
} from '@/lib/benefits';
import { AccountsService } from '@/modules/accounts';
import { EligibilityQueryService } from '@/modules/eligibility';
import { EstimatesService, nextEligibleDates, planSource } from '@/modules/estimates';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { isUuid } from '@/platform/kernel/codes';
import { fromMinor, toMinor } from '@/platform/kernel/decimal';
import { MSG } from '@/platform/kernel/messages';
import { isoDate, todayIso } from '@/platform/kernel/time';
import type { CreateQuoteDto, QuoteOrderDto } from '../api/dto/create-quote.dto';
import { QuotesRepository } from '../store/quotes.repository';
import type { Quote } from '../store/quote.entity';
import { ageOn, availabilityOn } from './quote-day';
import { renderQuote } from './quote.pdf';
import { priceOrder } from './quote.rules';
import type { PricedOrder, QuoteOrder } from './quote.types';

const NO_LIST =
  'the plan states no materials price list: not estimable (what the list does not state is never guessed)';

/** A quote as answered (docs/api.md, The counter). */
export interface QuoteBody extends PricedOrder {
  id: string;
  materials_source: MaterialsSource | null;
}

/** A stored quote with what its printed page names. */
export interface StoredQuote {
  body: QuoteBody;
  row: Quote;
}

/** Where a quote's plan comes from: a stored person's or an inline one. */
interface QuoteSource {
  plan: PlanJson;
  requestUid: string | null;
  personId: number | null;
  patientName: string | null;
  dob: string | null;
  planName: string | null;
  insurerCode: string | null;
  locationId: string | null;
}

const notFound = (id: string) => new NotFoundError(`Quote ${id} not found.`);

/**
 * The counter (docs/api.md, The counter): what the patient pays for what they order, priced from
 * the plan's materials price list alone, on a stored result's person (read through the
 * eligibility service, so another account's request is answered 404 like a missing one) or an
 * inline plan. Each quote is stored as answered, for its GET and its printed page.
 */
@Injectable()
export class QuotesService {
  constructor(
    private readonly eligibility: EligibilityQueryService,
    private readonly accounts: AccountsService,
    private readonly quotes: QuotesRepository,
    private readonly estimates: EstimatesService,
  ) {}

  async create(accountId: string, dto: CreateQuoteDto): Promise<QuoteBody> {
    const { source, day, patientAge, answer } = await this.price(accountId, dto);
    const { id } = await this.quotes.insert({
      accountId,
      requestUid: source.requestUid,
      personId: source.personId,
      locationId: source.locationId,
      patientName: source.patientName,
      planName: source.planName,
      insurerCode: source.insurerCode,
      dateOfService: day,
      patientAge,
      body: answer,
    });
    return bodyOf(id, answer);
  }

  /**
   * What the order costs, stored nowhere (the web Counter's totals as the staff change the
   * order; `create` stores it): the same checks and the same answer without its id.
   */
  async price(accountId: string, dto: CreateQuoteDto) {
    const source = await this.sourceOf(accountId, dto);
    const day = dto.date_of_service ?? todayIso();
    const plan = planFromJson(source.plan);
    const materials = plan.materials ?? null;
    const stated = dto.patient_age ?? null;
    if (!source.requestUid && stated === null && materials && statesMaxAge(materials))
      throw ValidationFailed.field('patient_age', MSG.required);
    const patientAge = stated ?? ageOn(source.dob, day);
    const order = orderOf(dto.order);
    const priced = materials
      ? priceOrder({
          materials,
          order,
          patientAge,
          availability: availabilityOn(
            source.plan.items,
            nextEligibleDates(source.plan.items),
            day,
          ),
        })
      : unpriced(order);
    const answer = {
      ...priced,
      materials_source: materials ? (plan.materials_source ?? null) : null,
    };
    return { source, day, patientAge, answer };
  }

  async get(accountId: string, id: string): Promise<StoredQuote> {
    const row = isUuid(id) ? await this.quotes.find(accountId, id) : null;
    if (!row) throw notFound(id);
    return { body: bodyOf(row.id, row.body), row };
  }

  /** The quote printed for the patient (docs/api.md, The counter), anew at each download. */
  async pdf(accountId: string, id: string): Promise<{ filename: string; pdf: Buffer }> {
    const { body, row } = await this.get(accountId, id);
    const location = row.locationId
      ? await this.accounts.getLocationById(accountId, row.locationId)
      : null;
    const pdf = await renderQuote({
      body,
      location,
      patientName: row.patientName,
      patientAge: row.patientAge,
      planName: row.planName,
      insurerCode: row.insurerCode,
      dateOfService: isoDate(row.dateOfService)!,
      createdAt: row.createdAt,
      printedAt: new Date(),
    });
    return { filename: `quote-${row.id}.pdf`, pdf };
  }

  private async sourceOf(accountId: string, dto: CreateQuoteDto): Promise<QuoteSource> {
    const source = planSource(dto);
    if (source !== 'plan') return this.storedPerson(accountId, source.uid, source.personId);
    // The practice the printed quote names: the account's default location (an account
    // without one prints none; any other failure is the request's).
    const location = await this.accounts.resolveLocation(accountId, null).catch((e: unknown) => {
      if (e instanceof ValidationFailed) return null;
      throw e;
    });
    return {
      plan: dto.plan as unknown as PlanJson,
      requestUid: null,
      personId: null,
      patientName: null,
      dob: null,
      planName: null,
      insurerCode: null,
      locationId: location?.id ?? null,
    };
  }

  /** One person of a complete result of the account, as estimates read one (docs/api.md, Estimates). */
  private async storedPerson(accountId: string, uid: string, personId: number) {
    const { result, person } = await this.estimates.storedEntry(accountId, uid, personId);
    const request = await this.eligibility.findRequest(accountId, uid);
    return {
      plan: person.plan!,
      requestUid: uid,
      personId,
      patientName: person.full_name,
      dob: person.dob,
      planName: result.plan_name,
      insurerCode: result.insurer_code,
      locationId: request?.locationId ?? null,
    };
  }
}

/** The answer's keys in the contract's order, with its id first. */
function bodyOf(id: string, stored: Record<string, unknown>): QuoteBody {
  const s = stored as unknown as Omit<QuoteBody, 'id'>;
  return {
    id,
    lines: s.lines,
    retail: s.retail,
    plan_covers: s.plan_covers,
    patient_pays: s.patient_pays,
    not_estimable: s.not_estimable,
    materials_source: s.materials_source,
    notes: s.notes,
  };
}

function orderOf(dto: QuoteOrderDto): QuoteOrder {
  return {
    frame: dto.frame ?? null,
    lenses: dto.lenses ?? null,
    lens_options: dto.lens_options ?? null,
    contact_lenses: dto.contact_lenses ?? null,
    fitting: dto.fitting ?? null,
    in_lieu_keep: dto.in_lieu_keep ?? null,
  };
}

/** An order on a plan without a price list: every line not estimable, the totals zero. */
function unpriced(order: QuoteOrder): PricedOrder {
  const items: [string, string][] = [];
  if (order.frame) items.push(['frame', order.frame.retail]);
  if (order.lenses) items.push(['lenses', order.lenses.retail]);
  for (const o of order.lens_options ?? []) items.push([o.option, o.retail]);
  if (order.contact_lenses) items.push(['contact_lenses', order.contact_lenses.retail]);
  if (order.fitting) items.push(['fitting', order.fitting.retail]);
  const zero = fromMinor(0n);
  return {
    lines: [],
    retail: zero,
    plan_covers: zero,
    patient_pays: zero,
    not_estimable: items.map(([item, retail]) => ({
      item,
      retail: fromMinor(toMinor(retail)),
      reason: NO_LIST,
    })),
    notes: [],
  };
}

/** Whether any rule of the list states a `max_age` (then an inline plan's quote needs the age). */
export function statesMaxAge(materials: MaterialsList): boolean {
  const rules: MaterialsRule[] = [];
  const add = (rule: unknown) => {
    if (rule && typeof rule === 'object') rules.push(rule);
  };
  add(materials.frame);
  for (const entry of Object.values(materials.lenses ?? {})) {
    if (entry && isTiered(entry)) Object.values(entry.tiers).forEach(add);
    else add(entry);
  }
  Object.values(materials.lens_options ?? {}).forEach(add);
  Object.values(materials.contact_lenses ?? {}).forEach(add);
  return rules.some((r) => r.max_age !== undefined && r.max_age !== null);
}
