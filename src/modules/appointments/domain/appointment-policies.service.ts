import { Injectable } from '@nestjs/common';
import type { Tx } from '@/platform/db/database';
import { Clock } from '@/platform/kernel/clock';
import type {
  AppointmentPolicyDto,
  AppointmentPolicyResponse,
} from '../api/dto/appointment-policy.dto';
import type { AppointmentPolicy } from '../store/appointment-policy.entity';
import { AppointmentChecksRepository } from '../store/appointment-checks.repository';
import { AppointmentPoliciesRepository } from '../store/appointment-policies.repository';

/** docs/api.md, Appointments: the policy of an account that has not set one. */
export const DEFAULT_APPOINTMENT_POLICY: AppointmentPolicyResponse = {
  on_booking: true,
  days_before: [3],
  hours_before: [24],
  freshness_hours: 48,
  statuses: ['booked', 'arrived'],
};

/** Each account's appointment policy: when its appointments' coverage is checked. */
@Injectable()
export class AppointmentPolicies {
  private changed: (() => void) | null = null;

  constructor(
    private readonly policies: AppointmentPoliciesRepository,
    private readonly checks: AppointmentChecksRepository,
    private readonly clock: Clock,
  ) {}

  /** The account's policy, or the defaults until it stores one (`tx`: read in it). */
  async get(accountId: string, tx?: Tx): Promise<AppointmentPolicyResponse> {
    const policy = await this.policies.find(accountId, tx);
    return policy ? answerOf(policy) : structuredClone(DEFAULT_APPOINTMENT_POLICY);
  }

  /** Replaces the account's policy; answers it as stored. */
  async put(accountId: string, dto: AppointmentPolicyDto): Promise<AppointmentPolicyResponse> {
    const stored = await this.policies.save(accountId, {
      onBooking: dto.on_booking,
      daysBefore: dto.days_before,
      hoursBefore: dto.hours_before,
      freshnessHours: dto.freshness_hours,
      statuses: dto.statuses,
    });
    // The checks loop looks at every visit to come again: their next checks follow the new policy.
    await this.checks.rescheduleAccount(accountId, this.clock.now());
    this.changed?.();
    return answerOf(stored);
  }

  /**
   * Called after a policy changed (the checks loop, which depends on this service, registers
   * itself here, so its next pass is now rather than at its next tick).
   */
  onChange(listener: () => void): void {
    this.changed = listener;
  }
}

function answerOf(p: AppointmentPolicy): AppointmentPolicyResponse {
  return {
    on_booking: p.onBooking,
    days_before: p.daysBefore,
    hours_before: p.hoursBefore,
    freshness_hours: p.freshnessHours,
    statuses: p.statuses,
  };
}
