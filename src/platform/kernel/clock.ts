import { Injectable } from '@nestjs/common';

/**
 * The time as work scheduled by the service sees it (docs/api.md, Appointments: when checks are
 * due, whether an answer is fresh). One injectable source, so tests move time forward by
 * replacing `now` instead of sleeping until tomorrow.
 */
@Injectable()
export class Clock {
  now(): Date {
    return new Date();
  }
}
