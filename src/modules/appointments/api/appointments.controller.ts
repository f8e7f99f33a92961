import { Body, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiController } from '@/platform/http/api-controller';
import { ApiRead, ApiRoute, ApiWrite, INVALID_CURSOR } from '@/platform/http/api-routes';
import { MIB } from '@/platform/http/body/body-limits';
import type { AppRequest } from '@/platform/kernel/request-context';
import { Audited } from '@/modules/audit';
import { AppointmentsService } from '../domain/appointments.service';
import { AppointmentsSync } from '../domain/appointments-sync';
import { AppointmentChecks } from '../domain/appointment-checks';
import { keyActor } from '../domain/appointment-access';
import { AppointmentListResponse, AppointmentResponse } from './dto/appointment.response';
import { ListAppointmentsQuery } from './dto/list-appointments.query';
import { SyncAppointmentsDto, SyncResultResponse } from './dto/sync-appointments.dto';
import { AppointmentPathDto, UpsertAppointmentDto } from './dto/upsert-appointment.dto';

const EXTERNAL_ID = {
  name: 'external_id',
  type: String,
  example: 'EPIC-APPT-20261124-0042',
  description: "The practice system's own id: 1–64 printable ASCII characters.",
};
const NOT_FOUND: [404, unknown] = [
  404,
  { detail: 'Appointment EPIC-APPT-20261124-0042 not found.' },
];
const BAD_ID: [400, unknown] = [
  400,
  { errors: { external_id: { $: ['Ensure this field has no more than 64 characters.'] } } },
];

/** docs/api.md, Appointments: the practice system's appointments and the day's worklist. */
/**
 * docs/api.md, Appointments: a sync lists up to 5,000 appointment bodies. A full item (a patient
 * with a subscriber, a few services and insurers) is about 0.6 KiB as compact JSON and 0.9 KiB
 * pretty-printed: 5,000 items of 1.2 KiB ≈ 5.9 MiB, so 6 MiB. An item has at most about 60
 * values (20 services, 10 insurers, the patient and subscriber).
 */
const SYNC_BODY_LIMITS = { limitBytes: 6 * MIB, maxValues: 5_000 * 60 };

@ApiController('Appointments', 'api/auth/v1/appointments')
export class AppointmentsController {
  constructor(
    private readonly appointments: AppointmentsService,
    private readonly syncs: AppointmentsSync,
    private readonly checks: AppointmentChecks,
  ) {}

  @ApiWrite('sync', 200, {
    scope: 'appointments:write',
    body: SYNC_BODY_LIMITS,
    // Many appointments at once: the event names none.
    audit: Audited('appointment', 'update'),
    summary: 'Sync the appointments of a window',
    description:
      'Up to 5,000 appointments (each an upsert body with its `external_id`), stored as PUT ' +
      'stores each one; then every appointment of the account starting in [`from`, `to`) (and ' +
      'of `location_code`, when given) that is not listed and not yet `cancelled` becomes ' +
      '`cancelled`. An item with errors is reported in `errors` by its index, with the error ' +
      'tree a PUT would answer; the others are stored. `to` after `from`, at most 31 days ' +
      'later. Bodies up to 6 MiB.',
    answer: SyncResultResponse,
    errors: [[400, { errors: { to: { $: ['The window may span at most 31 days.'] } } }]],
  })
  @ApiBody({ type: SyncAppointmentsDto })
  sync(
    @Req() req: AppRequest,
    // Validated by AppointmentsSync (the window, then each item alone), not by the global pipe.
    @Body() body: Record<string, unknown>,
  ): Promise<SyncResultResponse> {
    return this.syncs.sync(req.auth!.accountId, body, keyActor(req.auth!));
  }

  @ApiRead('', {
    scope: 'appointments:read',
    audit: Audited('appointment', 'list'),
    summary: 'The worklist: appointments by start time',
    description:
      'Earliest first, keyset-paginated on (`starts_at`, id): pass `next_cursor` back as ' +
      '`cursor` (with the same filters) until it is null. Filters combine (AND); `from` and `to` ' +
      'are RFC 3339 with an offset (write `+` as `%2B` in a query string).',
    answer: AppointmentListResponse,
    errors: [INVALID_CURSOR],
  })
  list(
    @Req() req: AppRequest,
    @Query() query: ListAppointmentsQuery,
  ): Promise<AppointmentListResponse> {
    return this.appointments.list(req.auth!.accountId, query, keyActor(req.auth!));
  }

  @ApiRoute('put', ':external_id', undefined, {
    scope: 'appointments:write',
    audit: Audited('appointment', 'update', 'param:external_id'),
    summary: 'Store an appointment (upsert)',
    description:
      'Creates the appointment (201) or replaces it (200), answering it as it now stands. ' +
      'Idempotent: the same body again changes nothing (200, `updated_at` as it was). Last ' +
      'writer wins by `source_updated_at`: an older one than stored changes nothing and the ' +
      'stored appointment is answered (200).',
    param: EXTERNAL_ID,
    answer: AppointmentResponse,
    errors: [
      [
        400,
        {
          errors: {
            starts_at: {
              $: [
                'Enter a date and time with its offset (RFC 3339), e.g. 2026-11-24T15:04:00-06:00.',
              ],
            },
          },
        },
      ],
    ],
  })
  @ApiResponse({ status: 201, type: AppointmentResponse, description: 'Created.' })
  @ApiBody({ type: UpsertAppointmentDto })
  async upsert(
    @Req() req: AppRequest,
    @Param() path: AppointmentPathDto,
    // Validated by AppointmentIntake (as each item of a sync), not by the global pipe.
    @Body() body: Record<string, unknown>,
    @Res({ passthrough: true }) res: Response,
  ): Promise<AppointmentResponse> {
    const { appointment, created } = await this.appointments.upsert(
      req.auth!.accountId,
      path.external_id,
      body,
      keyActor(req.auth!),
    );
    res.status(created ? 201 : 200);
    return appointment;
  }

  @ApiRead(':external_id', {
    scope: 'appointments:read',
    audit: Audited('appointment', 'read', 'param:external_id'),
    summary: 'An appointment',
    param: EXTERNAL_ID,
    answer: AppointmentResponse,
    errors: [BAD_ID, NOT_FOUND],
  })
  get(@Req() req: AppRequest, @Param() path: AppointmentPathDto): Promise<AppointmentResponse> {
    return this.appointments.get(req.auth!.accountId, path.external_id, keyActor(req.auth!));
  }

  @ApiRoute('delete', ':external_id', 200, {
    scope: 'appointments:write',
    audit: Audited('appointment', 'update', 'param:external_id'),
    summary: 'Cancel an appointment',
    description:
      'The appointment becomes `cancelled` (it is kept); answers it. Cancelling a cancelled ' +
      'appointment changes nothing.',
    param: EXTERNAL_ID,
    answer: AppointmentResponse,
    errors: [BAD_ID, NOT_FOUND],
  })
  cancel(@Req() req: AppRequest, @Param() path: AppointmentPathDto): Promise<AppointmentResponse> {
    return this.appointments.cancel(req.auth!.accountId, path.external_id, keyActor(req.auth!));
  }

  @ApiWrite(':external_id/check', 202, {
    // A check is an eligibility request (an insurer's fee): SECURITY.md, API key scopes.
    scope: ['appointments:write', 'eligibility:write'],
    audit: Audited('appointment', 'update', 'param:external_id'),
    summary: 'Check an appointment now',
    description:
      "Starts a check of the appointment's coverage now, whether the last answer is fresh or " +
      'not, and answers the appointment with `coverage.state` `checking`; the answer follows ' +
      '(the `appointment.checked` webhook, or a GET). Only a visit to come, of a status the ' +
      "account's policy checks, is checked (else 400). Needs `eligibility:write` besides " +
      '`appointments:write`.',
    param: EXTERNAL_ID,
    answer: AppointmentResponse,
    errors: [
      NOT_FOUND,
      [
        400,
        {
          errors: {
            $: [
              'Appointment EPIC-APPT-20261124-0042 is not checked: only a visit to come, of a status the policy checks (booked, arrived), is.',
            ],
          },
        },
      ],
    ],
  })
  check(@Req() req: AppRequest, @Param() path: AppointmentPathDto): Promise<AppointmentResponse> {
    return this.checks.checkNow(req.auth!.accountId, path.external_id, keyActor(req.auth!));
  }
}
