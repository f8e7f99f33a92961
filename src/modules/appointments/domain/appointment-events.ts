import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { AccountsService } from '@/modules/accounts';
import { WebhookOutbox } from '@/modules/webhooks';
import { AppointmentResponse, type CoverageView } from '../api/dto/appointment.response';
import type { Appointment } from '../store/appointment.entity';

const EVENT_APPOINTMENT_CHECKED = 'appointment.checked';
const EVENT_APPOINTMENT_COVERAGE_CHANGED = 'appointment.coverage_changed';

/**
 * The `appointment` webhooks (docs/api.md, Appointments): `appointment.checked` after each
 * check's answer, `appointment.coverage_changed` too when it differs from the previous answer;
 * each body the appointment's GET at that moment. Recorded in the transaction that stores the
 * answer, so they go out once it committed, or not at all.
 */
/** Location codes kept by AppointmentEvents at most (a few hundred bytes each). */
export const LOCATION_CODES = 10_000;

@Injectable()
export class AppointmentEvents {
  private readonly codes = new Map<string, string>();

  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly accounts: AccountsService,
  ) {}

  /** The appointment's answer (its GET's body) as `view` may read it. */
  async response(appointment: Appointment, view: CoverageView): Promise<AppointmentResponse> {
    return AppointmentResponse.from(appointment, await this.locationCode(appointment), view);
  }

  /**
   * The code of the appointment's location. A location's code never changes (docs/api.md,
   * Locations: PATCH takes no code), so each is read once per process, by account and id; the
   * map is emptied when it reaches LOCATION_CODES entries. Every check's answer renders its
   * appointment (bench scenario 8).
   */
  private async locationCode(appointment: Appointment): Promise<string> {
    const key = `${appointment.accountId} ${appointment.locationId}`;
    const known = this.codes.get(key);
    if (known !== undefined) return known;
    const location = await this.accounts.getLocationById(
      appointment.accountId,
      appointment.locationId,
    );
    if (this.codes.size >= LOCATION_CODES) this.codes.clear();
    this.codes.set(key, location!.code);
    return location!.code;
  }

  async answeredInTx(tx: Tx, appointment: Appointment, changed: boolean): Promise<void> {
    // Whole: subscribing to `appointment` needs `eligibility:read` (docs/api.md, Webhooks).
    const body = JSON.stringify(await this.response(appointment, { answers: true }));
    // One answer, one occurrence: its transaction records it once (two answers may share an instant).
    const occurrence = randomUUID();
    const events = changed
      ? [EVENT_APPOINTMENT_CHECKED, EVENT_APPOINTMENT_COVERAGE_CHANGED]
      : [EVENT_APPOINTMENT_CHECKED];
    for (const event of events)
      await this.outbox.recordEventInTx(tx, {
        accountId: appointment.accountId,
        topic: 'appointment',
        event,
        resourceKey: `appointment:${appointment.id}:${occurrence}`,
        resourceUid: appointment.externalId,
        body,
      });
  }
}
