import { Injectable, Logger } from '@nestjs/common';
import { Implements } from '@/platform/kernel/hooks';
import { Clock } from '@/platform/kernel/clock';
import { NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { Database, type Tx } from '@/platform/db/database';
import {
  type CheckAnswer,
  CheckHooks,
  type CheckHooksPort,
  CheckIntake,
  type CheckOrder,
} from '@/modules/eligibility';
import type { MemberQuery } from '@/modules/insurers';
import { PatientsService } from '@/modules/patients';
import { AuditService, systemContext } from '@/modules/audit';
import { AppointmentResponse } from '../api/dto/appointment.response';
import {
  AppointmentChecksRepository,
  type CheckRow,
  type CheckUpdate,
} from '../store/appointment-checks.repository';
import { AppointmentsRepository } from '../store/appointments.repository';
import { type AppointmentActor, coverageView } from './appointment-access';
import { AppointmentEvents } from './appointment-events';
import { AppointmentPolicies } from './appointment-policies.service';
import { answered, answeredState, reread, unchanged } from './check-answers';
import { decide, isCheckable, isFresh, type SchedulePolicy } from './check-schedule';
import { basisOf, type PatientIdentity } from './coverage';
import { formatInstant } from '@/platform/kernel/time';

const HOUR_MS = 3_600_000;
/** The audit trail's actor of the checks nobody asked for (docs/api.md, Audit events). */
const SYSTEM_ACTOR = 'appointment-checks';

/** A check `handle` started: its eligibility request, and whether a "check now" asked for it. */
interface StartedCheck {
  accountId: string;
  uid: string;
  forced: boolean;
}
/** Appointments looked at per transaction by the checks loop. */
const CHECK_CHUNK = 200;
/** The longest freshness a policy may have (docs/api.md, Appointments: `freshness_hours`). */
const MAX_FRESHNESS_MS = 720 * HOUR_MS;

/**
 * The checks of appointments (docs/api.md, Appointments). The checks loop (`runDue`) takes the
 * appointments whose `next_check_at` has come, in chunks, each in one transaction: per the
 * account's policy it checks (an eligibility request of origin `appointment`, at batch-item
 * priority), reuses a fresh enough answer for the same patient and insurers, or only moves the
 * schedule to the next point. The answer comes back through the eligibility module's CheckHooks,
 * in the transaction that stores it: the coverage on the visit's date, the changes, the webhooks.
 */
@Implements(CheckHooks)
@Injectable()
export class AppointmentChecks implements CheckHooksPort {
  private readonly logger = new Logger(AppointmentChecks.name);

  constructor(
    private readonly database: Database,
    private readonly checks: AppointmentChecksRepository,
    private readonly appointments: AppointmentsRepository,
    private readonly policies: AppointmentPolicies,
    private readonly intake: CheckIntake,
    private readonly events: AppointmentEvents,
    private readonly patients: PatientsService,
    private readonly clock: Clock,
    private readonly audit: AuditService,
  ) {}

  /** Every appointment due at the clock's time, chunk by chunk; answers how many it looked at. */
  async runDue(): Promise<number> {
    let total = 0;
    for (;;) {
      const now = this.clock.now();
      const { count, started } = await this.database.transaction(async (tx) => {
        const rows = await this.checks.takeDue(now, CHECK_CHUNK, tx);
        return { count: rows.length, started: await this.handle(rows, now, tx) };
      });
      // docs/api.md, Audit events: a check nobody asked for is the service's own (`system`), an
      // eligibility request created; "check now" is its asker's (the route's own event).
      for (const check of started.filter((c) => !c.forced))
        await this.audit.record({
          ...systemContext(check.accountId, SYSTEM_ACTOR),
          action: 'create',
          resourceType: 'eligibility_request',
          resourceId: check.uid,
        });
      total += count;
      if (count < CHECK_CHUNK) return total;
    }
  }

  /**
   * "Check now" (202): a check starts whether the last answer is fresh or not. Answers the
   * appointment as `actor` may read it.
   */
  async checkNow(
    accountId: string,
    externalId: string,
    actor: AppointmentActor,
  ): Promise<AppointmentResponse> {
    const now = this.clock.now();
    const appointment = await this.database.transaction(async (tx) => {
      const row = await this.checks.lockOne(accountId, externalId, tx);
      if (!row) throw new NotFoundError(`Appointment ${externalId} not found.`);
      const policy = await this.policies.get(accountId);
      if (!isCheckable({ startsAt: new Date(row.starts_at), status: row.status }, now, policy))
        throw new ValidationFailed({
          $: [
            `Appointment ${externalId} is not checked: only a visit to come, of a status the policy checks (${policy.statuses.join(', ')}), is.`,
          ],
        });
      await this.handle([{ ...row, check_forced: true }], now, tx);
      return (await this.appointments.findOne(accountId, externalId, tx))!;
    });
    this.logger.log({ accountId }, 'appointment check asked');
    return this.events.response(appointment, coverageView(actor));
  }

  /** CheckHooksPort: a check answered (or its answer grew); in the answer's transaction. */
  async answeredInTx(tx: Tx, answer: CheckAnswer): Promise<void> {
    const rows = await this.checks.byRequest(answer.accountId, answer.requestUid, tx);
    if (rows.length === 0) return;
    const now = this.clock.now();
    // On the answer's own connection: no second one from the pool while its transaction holds one.
    const policy = await this.policies.get(answer.accountId, tx);
    for (const row of rows) {
      const basis = basisOf(answer.bodyV2, await this.identityOf(row));
      const result = answered(row, basis, now, answer.requestUid, policy);
      const update: CheckUpdate = {
        ...unchanged(row),
        coverage_state: result.coverageState,
        coverage_stale: result.stale,
        coverage: result.coverage,
      };
      const [written] = await this.checks.apply([update], tx);
      await this.events.answeredInTx(tx, written, result.changes.length > 0);
    }
  }

  /**
   * The checks of `rows` at `now`, in `tx`: the requests stored (started after the commit), the
   * schedule and coverage written, the reused answers' webhooks recorded. Answers the checks
   * started (their request uids, and whether a "check now" asked for each).
   */
  private async handle(rows: CheckRow[], now: Date, tx: Tx): Promise<StartedCheck[]> {
    const policies = new Map<string, SchedulePolicy>();
    for (const id of new Set(rows.map((r) => r.account_id)))
      policies.set(id, await this.policies.get(id, tx));
    const plans = rows.map((row) => {
      const policy = policies.get(row.account_id)!;
      const last =
        row.checked_key === row.check_key && row.checked_at ? new Date(row.checked_at) : null;
      const input = {
        startsAt: new Date(row.starts_at),
        status: row.status,
        lastCheckAt: last,
        forced: row.check_forced,
      };
      return { row, policy, last, ...decide(input, now, policy) };
    });
    const wanted = plans.filter((p) => p.due && !p.row.check_forced);
    const latest = new Map(
      (
        await this.checks.latestAnswers(
          wanted.map((p) => ({ account_id: p.row.account_id, check_key: p.row.check_key })),
          new Date(now.getTime() - MAX_FRESHNESS_MS),
          tx,
        )
      ).map((a) => [`${a.account_id} ${a.check_key}`, a]),
    );
    const updates: CheckUpdate[] = [];
    const reused: { id: string; changed: boolean }[] = [];
    const orders: { row: CheckRow; order: CheckOrder; update: CheckUpdate }[] = [];
    for (const { row, policy, last, due, next } of plans) {
      const update = unchanged(row, next);
      if (!due || (!row.check_forced && last !== null && isFresh(last, now, policy))) {
        // Nothing to ask (or this appointment's own answer is fresh): the answer on the visit's
        // date as it now is (a reschedule may have moved it), and the next point.
        updates.push({ ...update, ...reread(row, policy) });
        continue;
      }
      const other = row.check_forced ? undefined : latest.get(`${row.account_id} ${row.check_key}`);
      if (other?.coverage.basis && isFresh(new Date(other.checked_at), now, policy)) {
        // Another visit of the same patient and insurers was answered recently: that answer.
        const at = new Date(other.coverage.checked_at ?? other.checked_at);
        const result = answered(
          row,
          other.coverage.basis,
          at,
          other.coverage.request_uid ?? null,
          policy,
        );
        updates.push({
          ...update,
          coverage_state: result.coverageState,
          coverage_stale: result.stale,
          coverage: result.coverage,
          checked_at: formatInstant(other.checked_at, 'utc'),
          checked_key: row.check_key,
          check_request_uid: null,
        });
        reused.push({ id: row.id, changed: result.changes.length > 0 });
        continue;
      }
      const order = await this.orderOf(row).catch((e: unknown) => {
        // One appointment that cannot be asked about (its patient record unreadable) must not
        // hold back the others: it is looked at again in an hour.
        this.logger.warn(
          { id: row.id, err: (e as Error).message },
          'appointment check not started',
        );
        return null;
      });
      if (order) orders.push({ row, update, order });
      else
        updates.push({ ...update, next_check_at: formatInstant(now.getTime() + HOUR_MS, 'utc') });
    }
    const stored = await this.intake.storeInTx(
      tx,
      orders.map((o) => o.order),
    );
    orders.forEach(({ row, update }, i) => {
      const before = answeredState(row);
      updates.push({
        ...update,
        coverage_state: 'checking',
        coverage: { ...(row.coverage ?? {}), ...(before ? { answered_state: before } : {}) },
        checked_at: formatInstant(now, 'utc'),
        checked_key: row.check_key,
        check_request_uid: stored[i].uid,
      });
    });
    const written = new Map((await this.checks.apply(updates, tx)).map((a) => [a.id, a]));
    for (const r of reused) await this.events.answeredInTx(tx, written.get(r.id)!, r.changed);
    if (rows.length > 0)
      this.logger.log(
        { looked: rows.length, checks: stored.length, reused: reused.length },
        'appointment checks',
      );
    return orders.map(({ row }, i) => ({
      accountId: row.account_id,
      uid: stored[i].uid,
      forced: row.check_forced,
    }));
  }

  /** The eligibility request of a check: the appointment's patient, insurers and location. */
  private async orderOf(row: CheckRow): Promise<CheckOrder> {
    return {
      accountId: row.account_id,
      locationId: row.location_id,
      insurerCodes: row.insurer_codes,
      query: await this.queryOf(row),
      tasksDueBy: new Date(new Date(row.starts_at).getTime() - HOUR_MS),
    };
  }

  private async queryOf(row: CheckRow): Promise<MemberQuery> {
    const p = row.patient;
    if (p)
      return {
        firstName: p.first_name,
        lastName: p.last_name,
        dob: p.dob,
        zipcode: p.zipcode,
        ssnLastFour: p.ssn_last_four,
        memberId: p.member_id,
        ...(p.subscriber
          ? {
              subscriber: {
                firstName: p.subscriber.first_name,
                lastName: p.subscriber.last_name,
                dob: p.subscriber.dob,
                memberId: p.subscriber.member_id,
              },
            }
          : {}),
      };
    const record = await this.patients.findByCode(row.account_id, row.patient_code!);
    return {
      firstName: record.firstName,
      lastName: record.lastName,
      dob: record.dob,
      zipcode: record.address?.zipcode ?? '',
      ssnLastFour: record.ssnLastFour,
      memberId: null,
    };
  }

  private async identityOf(row: CheckRow): Promise<PatientIdentity> {
    if (row.patient) return { dob: row.patient.dob, last_name: row.patient.last_name };
    const record = await this.patients.findByCode(row.account_id, row.patient_code!);
    return { dob: record.dob, last_name: record.lastName };
  }
}
