import { Injectable, Logger } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, In, Repository } from 'typeorm';
import { generateCode, withUniqueRetry } from '@/common/codes';
import { addFieldError, ErrorTree, NotFoundError, ValidationFailed } from '@/common/errors';
import { formatDecimal4, sumDecimals, toMinor } from '@/common/decimal';
import { decodeCursor, encodeCursor } from '@/common/keyset-cursor';
import { AccountsService } from '@/modules/accounts/accounts.service';
import { LocationRef } from '@/modules/accounts/dto/location.dto';
import type { Location } from '@/modules/accounts/location.entity';
import { MailService } from '@/modules/mail/mail.service';
import { renderClaimNotification } from './claim-notification';
import { ClaimServiceLine } from './claim-service-line.entity';
import { Claim, ClaimAddress, ClaimPerson } from './claim.entity';
import { ClaimListResponse, ClaimResponse } from './dto/claim.response';
import type { ClaimAddressDto, ClaimPersonDto, CreateClaimDto } from './dto/create-claim.dto';
import { DEFAULT_CLAIM_PAGE_SIZE, ListClaimsQuery } from './dto/list-claims.query';
import { insurerName, isClaimInsurer } from './insurer-codes';
import { insurerRuleViolations } from './insurer-rules';

@Injectable()
export class ClaimsService {
  private readonly logger = new Logger(ClaimsService.name);

  constructor(
    @InjectDataSource() private readonly db: DataSource,
    @InjectRepository(Claim) private readonly claims: Repository<Claim>,
    @InjectRepository(ClaimServiceLine) private readonly lines: Repository<ClaimServiceLine>,
    private readonly accounts: AccountsService,
    private readonly mail: MailService,
  ) {}

  /**
   * Creates a claim (CONTRACT §5) after the checks the body's shape cannot express, all reported
   * together: the location, a known insurer (whole-request error), the insurer's own rules and
   * the paid amount against the services' total (field errors).
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
    const insurer = input.primary_member.insurer_code;
    if (!isClaimInsurer(insurer)) {
      (errors.$ ??= []).push(`Unknown insurer code: ${insurer}.`);
    } else {
      for (const v of insurerRuleViolations(input))
        addFieldError(errors, v.path.split('.'), v.message);
    }
    // Exact decimal arithmetic (integer ten-thousandths), never floats: 0.7 + 0.1 is 0.8.
    const total = sumDecimals(input.services.map((s) => s.cost));
    if (toMinor(input.paid_amount) > toMinor(total)) {
      addFieldError(
        errors,
        ['paid_amount'],
        `Ensure this value is no more than the total cost of the services (${total}).`,
      );
    }
    if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);

    const { claim, services } = await withUniqueRetry(() =>
      this.db.transaction(async (em) => {
        const claim = await em.save(
          em.create(Claim, {
            accountId,
            locationId: location!.id,
            code: generateCode('CLM'),
            status: 'ready',
            insurerCode: insurer,
            patient: toPerson(input.patient),
            primaryMember: toPerson(input.primary_member),
            paidAmount: formatDecimal4(input.paid_amount)!,
            acceptAssignment: input.accept_assignment ?? false,
            metadata: input.metadata ?? null,
          }),
        );
        const services = await em.save(
          input.services.map((s, position) =>
            em.create(ClaimServiceLine, {
              claimId: claim.id,
              position,
              codes: s.codes.map((c) => c.toUpperCase()),
              serviceDate: s.date,
              quantity: s.quantity,
              cost: formatDecimal4(s.cost)!,
              diagnosisCodes: (s.diagnosis_codes ?? []).map((c) => c.toUpperCase()),
            }),
          ),
        );
        return { claim, services };
      }),
    );
    this.logger.log({ accountId, claim: claim.code, insurer }, 'claim created');
    return ClaimResponse.from(claim, services, LocationRef.from(location!));
  }

  async getByCode(accountId: string, code: string): Promise<ClaimResponse> {
    const claim = await this.claims.findOne({ where: { accountId, code } });
    if (!claim) throw new NotFoundError(`Claim ${code} not found.`);
    const [services, location] = await Promise.all([
      this.lines.find({ where: { claimId: claim.id }, order: { position: 'ASC' } }),
      this.accounts.getLocationById(accountId, claim.locationId),
    ]);
    return ClaimResponse.from(claim, services, LocationRef.from(location!));
  }

  /** Newest first, keyset-paginated on (created_at, id) like the patient list. */
  async list(accountId: string, query: ListClaimsQuery): Promise<ClaimListResponse> {
    const limit = query.limit ?? DEFAULT_CLAIM_PAGE_SIZE;
    const qb = this.claims
      .createQueryBuilder('c')
      .where('c.account_id = :accountId', { accountId })
      .orderBy('c.created_at', 'DESC')
      .addOrderBy('c.id', 'DESC')
      .limit(limit + 1);
    if (query.cursor) {
      const after = decodeCursor(query.cursor);
      qb.andWhere(
        '(c.created_at, c.id) < (CAST(:afterTs AS timestamptz), CAST(:afterId AS uuid))',
        {
          afterTs: after.createdAt.toISOString(),
          afterId: after.id,
        },
      );
    }
    const rows = await qb.getMany();
    const page = rows.slice(0, limit);
    const lines = page.length
      ? await this.lines.find({
          where: { claimId: In(page.map((c) => c.id)) },
          order: { position: 'ASC' },
        })
      : [];
    const locations = new Map(
      (await this.accounts.listLocations(accountId)).map((l) => [l.id, LocationRef.from(l)]),
    );
    const last = page[page.length - 1];
    return {
      result: page.map((c) =>
        ClaimResponse.from(
          c,
          lines.filter((l) => l.claimId === c.id),
          locations.get(c.locationId)!,
        ),
      ),
      next_cursor:
        rows.length > limit && last
          ? encodeCursor({ createdAt: last.createdAt, id: last.id })
          : null,
    };
  }

  /**
   * Queues the claim submission e-mail to `email` (sent by the mail worker, with retries).
   * Unknown claim → the same 404 as GET.
   */
  async notifyCustomer(accountId: string, code: string, email: string): Promise<void> {
    const claim = await this.getByCode(accountId, code);
    const rendered = renderClaimNotification(claim, insurerName(claim.primary_member.insurer_code));
    await this.mail.enqueue({
      accountId,
      kind: 'claim_notification',
      ref: claim.code,
      to: email,
      ...rendered,
    });
  }
}

function toPerson(p: ClaimPersonDto): ClaimPerson {
  return {
    first_name: p.first_name,
    last_name: p.last_name,
    dob: p.dob,
    type: p.type ?? null,
    sex: p.sex ?? null,
    member_id: p.member_id ?? null,
    ssn_last_four: p.ssn_last_four ?? null,
    email: p.email ?? null,
    phone: p.phone ?? null,
    address: p.address ? toAddress(p.address) : null,
  };
}

function toAddress(a: ClaimAddressDto): ClaimAddress {
  return {
    line1: a.line1,
    line2: a.line2 ?? null,
    city: a.city,
    zipcode: a.zipcode,
    state: a.state,
    recipient: a.recipient ?? null,
  };
}
