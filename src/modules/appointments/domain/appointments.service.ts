import { Injectable, Logger } from '@nestjs/common';
import { ErrorCollector, NotFoundError } from '@/platform/kernel/errors';
import { timestampMs } from '@/platform/http/validation/fields';
import { LIST_DEFAULT_PAGE_SIZE } from '@/platform/http/pagination/list-query';
import { AccountsService } from '@/modules/accounts';
import { AppointmentListResponse, AppointmentResponse } from '../api/dto/appointment.response';
import type { ListAppointmentsQuery } from '../api/dto/list-appointments.query';
import type { Appointment } from '../store/appointment.entity';
import { AppointmentsRepository } from '../store/appointments.repository';
import { AppointmentChecksLoop } from '../jobs/appointment-checks.loop';
import { AppointmentIntake } from './appointment-intake';
import { APPOINTMENT_MESSAGES } from './appointment-rules';
import { type AppointmentActor, coverageView, storedBy } from './appointment-access';

/** Appointments one at a time, and the worklist (docs/api.md, Appointments). */
@Injectable()
export class AppointmentsService {
  private readonly logger = new Logger(AppointmentsService.name);

  constructor(
    private readonly appointments: AppointmentsRepository,
    private readonly intake: AppointmentIntake,
    private readonly accounts: AccountsService,
    private readonly loop: AppointmentChecksLoop,
  ) {}

  /**
   * Stores the appointment `externalId` as `body` says (an upsert: the same body again changes
   * nothing, an older `source_updated_at` changes nothing), in one statement, as `actor`'s
   * (who stored it decides whether checks run by themselves). Answers it as it now stands, as
   * `actor` may read it, and whether this call created it.
   */
  async upsert(
    accountId: string,
    externalId: string,
    body: unknown,
    actor: AppointmentActor,
  ): Promise<{ appointment: AppointmentResponse; created: boolean }> {
    const { values, locationCode } = await this.intake.one(accountId, externalId, body);
    const { appointment, outcome } = await this.appointments.upsertOne(accountId, {
      ...values,
      ...storedBy(actor),
    });
    if (outcome !== 'unchanged') {
      this.logger.log({ accountId, outcome }, 'appointment stored');
      // A booking is checked at once (docs/api.md, Appointments), not at the loop's next tick.
      this.loop.kick();
    }
    // An older write answers the stored appointment, whose location may be another.
    const code =
      appointment.locationId === values.location_id
        ? locationCode
        : await this.locationCode(accountId, appointment);
    return {
      appointment: AppointmentResponse.from(appointment, code, coverageView(actor)),
      created: outcome === 'created',
    };
  }

  /** The appointment; another account's is answered as a missing one (404). */
  async get(
    accountId: string,
    externalId: string,
    actor: AppointmentActor,
  ): Promise<AppointmentResponse> {
    const appointment = await this.appointments.findOne(accountId, externalId);
    if (!appointment) throw notFound(externalId);
    return this.render(accountId, appointment, actor);
  }

  /**
   * The person of the appointment's last checked answer, to price at the Counter: its request
   * and person id; 404 while no answer names the patient (another account's appointment too).
   */
  async checkedPerson(
    accountId: string,
    externalId: string,
  ): Promise<{ requestUid: string; personId: number }> {
    const appointment = await this.appointments.findOne(accountId, externalId);
    if (!appointment) throw notFound(externalId);
    const requestUid = appointment.coverage?.request_uid;
    const personId = appointment.coverage?.basis?.person_id;
    if (!requestUid || typeof personId !== 'number')
      throw new NotFoundError(`Appointment ${externalId} has no checked plan to price.`);
    return { requestUid, personId };
  }

  /** DELETE: the appointment becomes `cancelled` (it stays, for the worklist and its checks). */
  async cancel(
    accountId: string,
    externalId: string,
    actor: AppointmentActor,
  ): Promise<AppointmentResponse> {
    const appointment = await this.appointments.cancelOne(accountId, externalId);
    if (!appointment) throw notFound(externalId);
    return this.render(accountId, appointment, actor);
  }

  /** The worklist: by `starts_at`, earliest first, keyset-paged; as `actor` may read it. */
  async list(
    accountId: string,
    query: ListAppointmentsQuery,
    actor: AppointmentActor,
  ): Promise<AppointmentListResponse> {
    return (await this.listWithOffsets(accountId, query, actor)).page;
  }

  /**
   * The worklist's page, with the offset each appointment's `starts_at` was sent with (by
   * external id; null: stored before it was kept), for a page that shows the visit's own clock.
   */
  async listWithOffsets(
    accountId: string,
    query: ListAppointmentsQuery,
    actor: AppointmentActor,
  ): Promise<{ page: AppointmentListResponse; offsets: Map<string, number | null> }> {
    const locations = await this.accounts.listLocations(accountId);
    const errors = new ErrorCollector();
    const location = query.location_code
      ? locations.find((l) => l.code === query.location_code)
      : undefined;
    if (query.location_code && !location)
      errors.add('location_code', APPOINTMENT_MESSAGES.unknownLocation(query.location_code));
    // The window's order (a worklist may span any length of time, unlike a sync's window).
    if (query.from && query.to && timestampMs(query.to)! <= timestampMs(query.from)!)
      errors.add('to', APPOINTMENT_MESSAGES.toBeforeFrom);
    errors.throwIfAny();
    const locationId = location?.id ?? null;
    const page = await this.appointments.page(
      accountId,
      { from: query.from, to: query.to, locationId, coverageState: query.coverage_state },
      { limit: query.limit ?? LIST_DEFAULT_PAGE_SIZE, cursor: query.cursor },
    );
    const codes = new Map(locations.map((l) => [l.id, l.code]));
    const view = coverageView(actor);
    return {
      page: {
        result: page.result.map((a) => AppointmentResponse.from(a, codes.get(a.locationId)!, view)),
        next_cursor: page.next_cursor,
      },
      offsets: new Map(page.result.map((a) => [a.externalId, a.startsOffset ?? null])),
    };
  }

  private async render(
    accountId: string,
    appointment: Appointment,
    actor: AppointmentActor,
  ): Promise<AppointmentResponse> {
    const code = await this.locationCode(accountId, appointment);
    return AppointmentResponse.from(appointment, code, coverageView(actor));
  }

  private async locationCode(accountId: string, appointment: Appointment): Promise<string> {
    return (await this.accounts.getLocationById(accountId, appointment.locationId))!.code;
  }
}

const notFound = (externalId: string) => new NotFoundError(`Appointment ${externalId} not found.`);
