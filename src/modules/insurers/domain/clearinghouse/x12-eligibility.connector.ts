import { Injectable } from '@nestjs/common';
import type {
  ConnectorContext,
  DetailsOutcome,
  InsurerConnector,
  InsurerPerson,
  MemberQuery,
  PlanDetailsQuery,
  SearchOutcome,
  WireExchange,
} from '../insurer-connector';
import { KNOWN_INSURERS } from '../insurer-codes';
import { InsurerConnectorFor, ServesConfiguredInsurers } from '../insurer-registry.service';
import { ClearinghouseClient } from './clearinghouse.client';
import type { EligibilityCheckResult, InsurerExchange } from './clearinghouse.types';

/** Why a real insurer was not asked: the 270 names the practice by its NPI (docs/api.md, Real insurers). */
const NO_NPI_REASON =
  "the location has no NPI: set the practice's NPI and organisation name on the Locations page " +
  '(or PATCH /api/auth/v1/locations/{code}/) before asking a real insurer';

/**
 * Every real insurer with a payer id (INSURER_PAYER_IDS), asked over X12 270/271 through the
 * clearinghouse (docs/api.md, Real insurers). One instance serves all those codes; the sandbox never comes here.
 * Without a clearinghouse it serves none, and their searches end `insurer_problem` as before.
 */
@Injectable()
@InsurerConnectorFor()
export class X12EligibilityConnector implements InsurerConnector, ServesConfiguredInsurers {
  constructor(private readonly client: ClearinghouseClient) {}

  servedInsurerCodes(): readonly string[] {
    return this.client.insurerCodes();
  }

  async search(query: MemberQuery, context: ConnectorContext): Promise<SearchOutcome> {
    const result = await this.ask(query, context, undefined);
    if (!result) return { kind: 'rejected', reason: NO_NPI_REASON };
    return result.outcome;
  }

  /**
   * A 271 for the one person: the subscriber is asked again (the 270 names the subscriber; a
   * dependent comes back in their loop) with the deepest service types the payer honours, and
   * the answer is cut down to that person.
   */
  async fetchPlanDetails(
    details: PlanDetailsQuery,
    context: ConnectorContext,
  ): Promise<DetailsOutcome> {
    const serviceTypes = this.client.detailServiceTypesFor(context.insurerCode);
    const result = await this.ask(details.query, context, serviceTypes);
    if (!result) return { kind: 'rejected', reason: NO_NPI_REASON };
    const { outcome } = result;
    if (outcome.kind !== 'found') return outcome;
    for (const plan of outcome.plans) {
      const person = plan.persons.find((p) => samePerson(p, details.person));
      if (person) return { kind: 'found', plan: { ...plan, persons: [person] } };
    }
    return { kind: 'not_found', reason: 'the payer no longer lists this person' };
  }

  private async ask(
    query: MemberQuery,
    context: ConnectorContext,
    serviceTypes: readonly string[] | undefined,
  ): Promise<EligibilityCheckResult | null> {
    if (!context.provider) return null;
    const code = context.insurerCode;
    const { firstName, lastName, dob, memberId } = query;
    const result = await this.client.checkEligibility({
      insurerCode: code,
      payerId: this.client.payerIdFor(code) ?? '',
      payerName: KNOWN_INSURERS.find((i) => i.code === code)?.name ?? code,
      provider: context.provider,
      patient: { firstName, lastName, dob, memberId },
      ...(query.subscriber ? { subscriber: query.subscriber } : {}),
      serviceTypes,
      deadline: context.deadline,
      signal: context.signal,
    });
    context.recordExchange(wireOf(result.exchange));
    return result;
  }
}

function wireOf(exchange: InsurerExchange): WireExchange {
  return {
    url: exchange.url || null,
    request: exchange.request || null,
    response: exchange.response,
    httpStatus: exchange.httpStatus,
    aaaCodes: exchange.aaaCodes,
    traceNumber: exchange.traceNumber,
    notes: exchange.notes,
  };
}

type PersonKey = Pick<InsurerPerson, 'type' | 'firstName' | 'dob'>;

function samePerson(a: PersonKey, b: PersonKey): boolean {
  const norm = (s: string) => s.trim().toLowerCase();
  return a.type === b.type && norm(a.firstName) === norm(b.firstName) && a.dob === b.dob;
}
