import { Column, Entity, PrimaryColumn } from 'typeorm';
import { TimeColumn } from '@/platform/db/columns';
import type { AppointmentStatus } from '../domain/appointment-words';

/**
 * An account's appointment policy (docs/api.md, Appointments): when its appointments' coverage
 * is checked. No row: the defaults.
 */
@Entity('appointment_policies')
export class AppointmentPolicy {
  @PrimaryColumn({ name: 'account_id', type: 'uuid' })
  accountId: string;

  @Column({ name: 'on_booking', type: 'boolean' })
  onBooking: boolean;

  @Column({ name: 'days_before', type: 'integer', array: true })
  daysBefore: number[];

  @Column({ name: 'hours_before', type: 'integer', array: true })
  hoursBefore: number[];

  @Column({ name: 'freshness_hours', type: 'integer' })
  freshnessHours: number;

  @Column({ type: 'text', array: true })
  statuses: AppointmentStatus[];

  @TimeColumn('updated_at', { ms: true })
  updatedAt: Date;
}
