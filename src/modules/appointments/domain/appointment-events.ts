import { randomUUID } from 'node:crypto';
import { Injectable } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { AccountsService } from '@/modules/accounts';
import { WebhookOutbox } from '@/modules/webhooks';
import { AppointmentResponse } from '../api/dto/appointment.response';
import type { Appointment } from '../store/appointment.entity';

export const EVENT_APPOINTMENT_CHECKED = 'appointment.checked';
export const EVENT_APPOINTMENT_COVERAGE_CHANGED = 'appointment.coverage_changed';

/**
 * The `appointment` webhooks (docs/api.md, Appointments): `appointment.checked` after each
 * check's answer, `appointment.coverage_changed` too when it differs from the previous answer;
 * each body the appointment's GET at that moment. Recorded in the transaction that stores the
 * answer, so they go out once it committed, or not at all.
 */
@Injectable()
export class AppointmentEvents {
  constructor(
    private readonly outbox: WebhookOutbox,
    private readonly accounts: AccountsService,
  ) {}

  /** The appointment's answer (its GET's body). */
  async response(appointment: Appointment): Promise<AppointmentResponse> {
    const location = await this.accounts.getLocationById(
      appointment.accountId,
      appointment.locationId,
    );
    return AppointmentResponse.from(appointment, location!.code);
  }

  async answeredInTx(tx: Tx, appointment: Appointment, changed: boolean): Promise<void> {
    const body = JSON.stringify(await this.response(appointment));
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
