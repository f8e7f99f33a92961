import { Injectable, Logger } from '@nestjs/common';
import { generateCode, withUniqueRetry } from '@/platform/kernel/codes';
import {
  addFieldError,
  ConflictError,
  ErrorTree,
  NotFoundError,
  ValidationFailed,
} from '@/platform/kernel/errors';
import { formatDecimal4 } from '@/platform/kernel/decimal';
import { Database } from '@/platform/db/database';
import {
  AccountsService,
  type Location,
  NpiRegistry,
  locationAddress,
  ORGANISATION_NPI_MESSAGE,
} from '@/modules/accounts';
import { MailService } from '@/modules/mail';
import { formatInstant } from '@/platform/kernel/time';
import {
  ClaimsClearinghouseClient,
  insurerName,
  InsurerSettingsService,
  isKnownInsurer,
  unknownInsurerMessages,
} from '@/modules/insurers';
import { BillingProviders } from './claim-billing-provider';
import { renderClaimForm } from './claim-form.pdf';
import { ClaimTransitions } from './claim-transitions';
import { renderClaimNotification } from './claim-notification';
import type { Claim } from '../store/claim.entity';
import { claimPerson } from './claim-person';
import { ClaimListResponse, ClaimResponse } from '../api/dto/claim.response';
import type { CreateClaimDto } from '../api/dto/create-claim.dto';
import { LIST_DEFAULT_PAGE_SIZE } from '@/platform/http/pagination/list-query';
import { ListClaimsQuery } from '../api/dto/list-claims.query';
import { ClaimsQueue } from '../jobs/claims.queue';
import { ClaimsRepository } from '../store/claims.repository';
import { insurerRuleViolations } from './insurer-rules';

@Injectable()
export class ClaimsService {
  private readonly logger = new Logger(ClaimsService.name);

  constructor(
    private readonly database: Database,
    private readonly claims: ClaimsRepository,
    private readonly accounts: AccountsService,
    private readonly mail: MailService,
    private readonly queue: ClaimsQueue,
    private readonly providers: BillingProviders,
    private readonly clearinghouse: ClaimsClearinghouseClient,
    private readonly insurers: InsurerSettingsService,
    private readonly transitions: ClaimTransitions,
    private readonly npiRegistry: NpiRegistry,
  ) {}

  /**
   * Creates a claim (docs/api.md, Claims) after the checks the body's shape cannot express, all reported
   * together: the location, a known insurer (whole-request error) and the insurer's own rules
   * (field errors). `paid_amount` is never refused for differing from the services' total.
   */
  async create(accountId: string, input: CreateClaimDto): Promise<ClaimResponse> {
    const errors: ErrorTree = {};
    let location: Location | null = null;
    try {
      location = await this.accounts.resolveLocation(accountId, input.location_code);
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      Object.assign(errors, e.errors);
    }
    if (location && input.rendering_provider?.npi === location.npi)
      addFieldError(
        errors,
        ['rendering_provider', 'npi'],
        "The rendering provider is an individual (a type-1 NPI): this is the location's organisation NPI.",
      );
    else if (
      input.rendering_provider &&
      (await this.npiRegistry.entityOf(input.rendering_provider.npi)) === 'organization'
    )
      addFieldError(errors, ['rendering_provider', 'npi'], ORGANISATION_NPI_MESSAGE);
    const insurer = input.primary_member.insurer_code;
    if (!isKnownInsurer(insurer)) {
      (errors.$ ??= []).push(...unknownInsurerMessages(insurer));
    } else {
      for (const v of insurerRuleViolations(input))
        addFieldError(errors, v.path.split('.'), v.message);
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const { claim, services } = await withUniqueRetry(() =>
      this.database.transaction(async (tx) => {
        const now = new Date();
        const stored = await this.claims.insert(
          {
            accountId,
            locationId: location!.id,
            code: generateCode('CLM'),
            status: 'ready',
            statusHistory: [{ status: 'ready', at: formatInstant(now, 'api'), detail: null }],
            createdAt: now,
            insurerCode: insurer,
            patient: claimPerson(input.patient),
            primaryMember: claimPerson(input.primary_member),
            paidAmount: formatDecimal4(input.paid_amount)!,
            acceptAssignment: input.accept_assignment ?? false,
            metadata: input.metadata ?? null,
            renderingProvider: input.rendering_provider
              ? {
                  npi: input.rendering_provider.npi,
                  first_name: input.rendering_provider.first_name,
                  last_name: input.rendering_provider.last_name,
                  taxonomy_code: input.rendering_provider.taxonomy_code?.toUpperCase() ?? null,
                }
              : null,
          },
          input.services.map((s, position) => ({
            position,
            codes: s.codes.map((c) => c.toUpperCase()),
            serviceDate: s.date,
            quantity: s.quantity,
            cost: formatDecimal4(s.cost)!,
            diagnosisCodes: (s.diagnosis_codes ?? []).map((c) => c.toUpperCase()),
          })),
          tx,
        );
        // Due at once: the claims worker submits it (docs/api.md, Claim lifecycle); its job is
        // enqueued after the commit (DbQueue.setDue).
        await this.queue.setDue(stored.claim.id, 0, tx);
        return stored;
      }),
    );
    this.logger.log({ accountId, claim: claim.code, insurer }, 'claim created');
    return ClaimResponse.from(claim, services, location!);
  }

  async getByCode(accountId: string, code: string): Promise<ClaimResponse> {
    const claim = await this.find(accountId, code);
    const [services, location] = await Promise.all([
      this.claims.linesOf(claim.id),
      this.accounts.getLocationById(accountId, claim.locationId),
    ]);
    return ClaimResponse.from(claim, services, location!);
  }

  /** Newest first, keyset-paginated on (created_at, id) like the patient list. */
  async list(accountId: string, query: ListClaimsQuery): Promise<ClaimListResponse> {
    const page = await this.claims.page(
      accountId,
      query.limit ?? LIST_DEFAULT_PAGE_SIZE,
      query.cursor,
    );
    const lines = page.result.length
      ? await this.claims.linesOfClaims(page.result.map((c) => c.id))
      : [];
    const locations = new Map((await this.accounts.listLocations(accountId)).map((l) => [l.id, l]));
    return {
      result: page.result.map((c) =>
        ClaimResponse.from(
          c,
          lines.filter((l) => l.claimId === c.id),
          locations.get(c.locationId)!,
        ),
      ),
      next_cursor: page.next_cursor,
    };
  }

  /** The claim form PDF (docs/api.md, Claim lifecycle), rendered from the claim as it is now. */
  async form(accountId: string, code: string): Promise<{ filename: string; pdf: Buffer }> {
    const claim = await this.getByCode(accountId, code);
    return { filename: `claim-${claim.code}.pdf`, pdf: await this.renderForm(accountId, claim) };
  }

  /** The 837P as submitted; a paper claim (or one not sent yet) has none: the same 404 shape. */
  async x12(accountId: string, code: string): Promise<string> {
    const claim = await this.find(accountId, code);
    if (claim.submissionChannel === 'paper' || !claim.x12837)
      throw new NotFoundError(`Claim ${code} has no 837P: it was not submitted electronically.`);
    return claim.x12837;
  }

  /**
   * A paper claim was mailed (docs/api.md, Errors): `ready_to_mail` → `submitted`, in its history and
   * its webhooks like any other change. Any other status → 409 naming it. `by` says who did it.
   */
  async markMailed(accountId: string, code: string, by: string): Promise<ClaimResponse> {
    const claim = await this.find(accountId, code);
    const notReady = () =>
      new ConflictError(
        `Claim ${code} is ${claim.status}, not ready_to_mail: only a paper claim waiting to be mailed can be marked as mailed.`,
      );
    if (claim.status !== 'ready_to_mail') throw notReady();
    const location = await this.accounts.getLocationById(accountId, claim.locationId);
    const moved = await this.transitions.move(claim.id, location!, {
      status: 'submitted',
      detail: `Paper claim form mailed to ${insurerName(claim.insurerCode)} (marked ${by}).`,
      set: { submissionChannel: 'paper', clearinghouseId: null, submittedAt: new Date() },
      nextInMs: null,
    });
    // Another request moved it first (two clicks on the button): the state it found wins.
    if (!moved) {
      claim.status = (await this.find(accountId, code)).status;
      throw notReady();
    }
    return this.getByCode(accountId, code);
  }

  private async find(accountId: string, code: string): Promise<Claim> {
    const claim = await this.claims.findByCode(accountId, code);
    if (!claim) throw new NotFoundError(`Claim ${code} not found.`);
    return claim;
  }

  private async renderForm(accountId: string, claim: ClaimResponse): Promise<Buffer> {
    const entity = await this.find(accountId, claim.code);
    const [{ location, provider }, mailing] = await Promise.all([
      this.providers.forLocation(accountId, entity.locationId),
      this.insurers.claimsMailing(accountId, entity.insurerCode),
    ]);
    return renderClaimForm({
      claim,
      insurerName: insurerName(entity.insurerCode),
      payerId: this.clearinghouse.payerIdFor(entity.insurerCode),
      provider,
      facility: {
        name: location.organizationName || location.title,
        address: locationAddress(location),
      },
      mailTo: mailing.lines,
    });
  }

  /**
   * Queues the claim submission e-mail to `email` (sent by the mail worker, with retries).
   * Unknown claim → the same 404 as GET.
   */
  async notifyCustomer(accountId: string, code: string, email: string): Promise<void> {
    const claim = await this.getByCode(accountId, code);
    const insurer = claim.primary_member.insurer_code;
    const mailing = await this.insurers.claimsMailing(accountId, insurer);
    const rendered = renderClaimNotification(claim, insurerName(insurer), mailing.lines);
    const pdf = await this.renderForm(accountId, claim);
    await this.mail.enqueue({
      accountId,
      kind: 'claim_notification',
      ref: claim.code,
      to: email,
      ...rendered,
      attachments: [
        { filename: `claim-${claim.code}.pdf`, contentType: 'application/pdf', content: pdf },
      ],
    });
  }
}
