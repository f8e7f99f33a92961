import { Query, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { PageController, PageRead, PageWrite } from '@/platform/http/page-routes';
import { CsvRefused } from '@/platform/http/csv-intake';
import { Clock } from '@/platform/kernel/clock';
import { type ErrorTree, NotFoundError, ValidationFailed } from '@/platform/kernel/errors';
import { isoDate } from '@/platform/kernel/time';
import 'express-session';
import { AccountsService, type Location } from '@/modules/accounts';
import { PatientsService } from '@/modules/patients';
import { Audited } from '@/modules/audit';
import {
  accountOf,
  webUser,
  bindForm,
  csvDownload,
  EmbeddedReach,
  formFields,
  redirectWith,
  renderPage,
  uploadedFile,
} from '@/modules/web';
import type { AppointmentResponse } from '../api/dto/appointment.response';
import type { SyncResultResponse } from '../api/dto/sync-appointments.dto';
import { AppointmentPathDto } from '../api/dto/upsert-appointment.dto';
import { AppointmentChecks } from '../domain/appointment-checks';
import { type AppointmentActor, webActor } from '../domain/appointment-access';
import { AppointmentPolicies } from '../domain/appointment-policies.service';
import { AppointmentsService } from '../domain/appointments.service';
import { AppointmentsSync } from '../domain/appointments-sync';
import {
  lineErrors,
  readScheduleCsv,
  SCHEDULE_COLUMNS,
  scheduleTemplateCsv,
  treeMessages,
} from './schedule-csv';
import {
  dayAfter,
  dayFields,
  type DayFields,
  dayUrl,
  dayWindow,
  ScheduleDayQuery,
  todayIn,
} from './schedule-day';
import { scheduleRows } from './schedule-view';

/** The worklist's largest page (docs/api.md, Appointments), read page after page. */
const PAGE_SIZE = 200;
/** Appointments one day of one location shows at most (five pages): the page stays small. */
export const MAX_DAY_APPOINTMENTS = 1_000;
/** Item errors of a sync shown at most (a file of thousands of bad lines still reads). */
const MAX_SHOWN_ERRORS = 200;

/** What a sync did, as the page shows it: the counts and the lines not stored. */
type SyncShown = SyncResultResponse & { lines: string[]; hidden: number };

declare module 'express-session' {
  interface SessionData {
    /** A sync's outcome, shown once by the page the sync redirects to (POST, redirect, GET). */
    scheduleSync?: SyncShown;
  }
}

/** What a page shows besides the day: why a form was refused, or what a sync did. */
interface PageExtra {
  refused?: string[];
  sync?: SyncShown;
}

/**
 * The Schedule page (docs/api.md, Appointments: the Schedule page): a location's appointments of
 * a day with their coverage in words and colour, the changes, "Check now"
 * (`POST .../appointments/{external_id}/check/`), and the day's CSV sync
 * (`POST .../appointments/sync/`), through the API's own services. Admins and staff, and
 * embedded sessions opened at `schedule`.
 */
@PageController('app/schedule', EmbeddedReach('schedule'))
export class WebScheduleController {
  constructor(
    private readonly appointments: AppointmentsService,
    private readonly syncs: AppointmentsSync,
    private readonly checks: AppointmentChecks,
    private readonly policies: AppointmentPolicies,
    private readonly accounts: AccountsService,
    private readonly patients: PatientsService,
    private readonly clock: Clock,
  ) {}

  @PageRead('', { audit: Audited('appointment', 'list') })
  async show(
    @Req() req: Request,
    @Res() res: Response,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    // A sync's outcome, once: a reload shows the day, it never sends the file again.
    const sync = req.session?.scheduleSync;
    if (sync) delete req.session.scheduleSync;
    await this.render(req, res, dayFields(query), sync ? { sync } : {});
  }

  @PageRead('template.csv')
  template(@Res() res: Response): void {
    csvDownload(res, 'schedule-template.csv').send(scheduleTemplateCsv());
  }

  /** The Counter of the row's patient, on the appointment's last checked answer. */
  @PageRead('counter', { audit: Audited('appointment', 'read', 'query:external_id') })
  async counter(
    @Req() req: Request,
    @Res() res: Response,
    @Query() query: Record<string, unknown>,
  ): Promise<void> {
    const asked = typeof query.external_id === 'string' ? query.external_id : '';
    const { external_id: id } = await bindForm(AppointmentPathDto, { external_id: asked }).catch(
      () => {
        throw new NotFoundError(`Appointment ${asked} not found.`);
      },
    );
    const { requestUid, personId } = await this.appointments.checkedPerson(accountOf(req), id);
    res.redirect(
      303,
      `/app/eligibility/${encodeURIComponent(requestUid)}/persons/${personId}/counter`,
    );
  }

  /** "Check now": the check starts and the day shows it `Checking`; a refusal shows why. */
  @PageWrite('check', { audit: Audited('appointment', 'update', 'body:external_id') })
  async checkNow(@Req() req: Request, @Res() res: Response): Promise<void> {
    const form = formFields(req.body);
    const fields = dayFields(form);
    try {
      const { external_id: id } = await bindForm(AppointmentPathDto, {
        external_id: form.external_id,
      });
      await this.checks.checkNow(accountOf(req), id, actorOf(req));
      redirectWith(req, res, dayUrl(fields), `The coverage of appointment ${id} is being checked.`);
    } catch (e) {
      const refused = refusal(e);
      if (!refused) throw e;
      res.status(refused.status);
      await this.render(req, res, fields, { refused: refused.messages });
    }
  }

  /**
   * The day's CSV sync: the file read into a sync of the page's day and location, then the day
   * again (a redirect: a reload does not send the file twice) with the counts and each refused
   * line. A file refused as a whole (or a bad day) stores nothing and is answered at once.
   */
  @PageWrite('sync', { audit: Audited('appointment', 'update') })
  async sync(@Req() req: Request, @Res() res: Response): Promise<void> {
    const fields = dayFields(formFields(req.body));
    try {
      const file = uploadedFile(req);
      const accountId = accountOf(req);
      const { date, location, timeZone } = await this.chosen(accountId, fields);
      // Read as it streams in, refused at the first limit (docs/api.md, Appointments).
      const parsed = await readScheduleCsv(file, {
        ...dayWindow(date, timeZone),
        location_code: location,
      });
      const result = await this.syncs.sync(accountId, parsed.body, actorOf(req));
      const lines = lineErrors(result.errors, parsed.lines);
      const shown = lines.slice(0, MAX_SHOWN_ERRORS);
      req.session.scheduleSync = { ...result, lines: shown, hidden: lines.length - shown.length };
      redirectWith(req, res, dayUrl({ date, location }), 'The file was synced.');
    } catch (e) {
      const refused = e instanceof CsvRefused ? { status: 400, messages: [e.message] } : refusal(e);
      if (!refused) throw e;
      res.status(refused.status);
      await this.render(req, res, fields, { refused: refused.messages });
    }
  }

  /** The day's page; a day or location the worklist refuses shows its errors (400), no rows. */
  private async render(
    req: Request,
    res: Response,
    fields: DayFields,
    extra: PageExtra = {},
  ): Promise<void> {
    const accountId = accountOf(req);
    const locations = await this.accounts.listLocations(accountId);
    let errors: ErrorTree | null = null;
    let day: Awaited<ReturnType<WebScheduleController['day']>> | null = null;
    try {
      day = await this.day(accountId, fields, locations, actorOf(req));
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      errors = e.errors;
      if (res.statusCode < 400) res.status(400);
    }
    const date = day?.date ?? fields.date ?? '';
    const now = this.clock.now();
    const rows = day
      ? scheduleRows(day.appointments, await this.policies.get(accountId), now, {
          timeZone: day.timeZone,
          offsets: day.offsets,
          names: await this.namesOf(accountId, day.appointments),
        })
      : [];
    renderPage(req, res, 'schedule.njk', {
      title: 'Schedule',
      section: 'schedule',
      shown: day !== null,
      date,
      location: day?.location ?? fields.location ?? '',
      locations: locations.map((l) => ({ code: l.code, title: l.title })),
      rows,
      timeZone: day?.timeZone ?? null,
      more: day?.more ?? false,
      maxRows: MAX_DAY_APPOINTMENTS,
      previous: day ? dayUrl({ date: dayAfter(day.date, -1), location: day.location }) : null,
      next: day ? dayUrl({ date: dayAfter(day.date, 1), location: day.location }) : null,
      errors,
      refused: extra.refused ?? [],
      sync: extra.sync ?? null,
      columns: SCHEDULE_COLUMNS,
    });
  }

  /**
   * The day and location chosen, or today and the default location; the location's time zone
   * (null: none), in which its day runs (else in UTC).
   */
  private async chosen(
    accountId: string,
    fields: DayFields,
    locations?: Location[],
  ): Promise<{ date: string; location: string; timeZone: string | null }> {
    const query = await bindForm(ScheduleDayQuery, { ...fields });
    const all = locations ?? (await this.accounts.listLocations(accountId));
    const location = query.location ?? (all.find((l) => l.isDefault) ?? all[0])?.code;
    // Never a sync or a day of every location: the page is one location's.
    if (!location) throw new ValidationFailed({ location: ['Choose a location.'] });
    const timeZone = all.find((l) => l.code === location)?.timeZone ?? null;
    const today = timeZone ? todayIn(this.clock.now(), timeZone) : isoDate(this.clock.now())!;
    return { date: query.date ?? today, location, timeZone };
  }

  /** The names of the patient records the day's appointments name, by code. */
  private async namesOf(
    accountId: string,
    appointments: AppointmentResponse[],
  ): Promise<Map<string, string>> {
    const names = new Map<string, string>();
    const codes = new Set(appointments.map((a) => a.patient_code).filter((c) => c !== null));
    for (const code of codes) {
      const record = await this.patients.findByCode(accountId, code).catch(() => null);
      if (record) names.set(code, `${record.firstName} ${record.lastName}`);
    }
    return names;
  }

  /** The day's appointments of the location, page after page, up to MAX_DAY_APPOINTMENTS. */
  private async day(
    accountId: string,
    fields: DayFields,
    locations: Location[],
    actor: AppointmentActor,
  ) {
    const { date, location, timeZone } = await this.chosen(accountId, fields, locations);
    const appointments: AppointmentResponse[] = [];
    const offsets = new Map<string, number | null>();
    let cursor: string | null = null;
    do {
      const { page, offsets: more } = await this.appointments.listWithOffsets(
        accountId,
        { ...dayWindow(date, timeZone), location_code: location, limit: PAGE_SIZE, cursor },
        actor,
      );
      appointments.push(...page.result);
      for (const [id, offset] of more) offsets.set(id, offset);
      cursor = page.next_cursor;
    } while (cursor && appointments.length < MAX_DAY_APPOINTMENTS);
    return { date, location, timeZone, appointments, offsets, more: cursor !== null };
  }
}

/** The signed-in user: a web user sees and checks everything of the Schedule (SECURITY.md). */
function actorOf(req: Request): AppointmentActor {
  return webActor(webUser(req)!.userId);
}

/** A check's or a sync's refusal as the page shows it: its status and messages; else null. */
function refusal(e: unknown): { status: number; messages: string[] } | null {
  if (e instanceof ValidationFailed) return { status: 400, messages: treeMessages(e.errors) };
  if (e instanceof NotFoundError) return { status: 404, messages: [e.message] };
  return null;
}
