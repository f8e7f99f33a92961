import { Injectable, Logger } from '@nestjs/common';
import { addFieldError, type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { Database } from '@/platform/db/database';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { SyncResultResponse, SyncWindowDto } from '../api/dto/sync-appointments.dto';
import { AppointmentChecksLoop } from '../jobs/appointment-checks.loop';
import { AppointmentsRepository, type StoredValues } from '../store/appointments.repository';
import { type AppointmentActor, storedBy } from './appointment-access';
import {
  AppointmentIntake,
  type CheckedBody,
  checkBody,
  externalIdErrors,
} from './appointment-intake';
import { APPOINTMENT_MESSAGES, windowErrors } from './appointment-rules';
import { MAX_SYNC_ITEMS } from './appointment-words';

/** The API's own pipe (as registered globally): the same rules and messages as every route. */
const pipe = createValidationPipe();

/** Items validated per turn of the event loop (the process keeps serving meanwhile). */
const CHECK_SLICE = 250;

/** Appointments per upsert statement. */
const SYNC_CHUNK = 500;

/** One item of a sync, checked on its own. */
interface CheckedItem {
  index: number;
  externalId: string | null;
  body: CheckedBody | null;
  /** Errors found before the account's data is read (the item's shape, its external id). */
  errors: ErrorTree;
}

/**
 * `POST .../appointments/sync/` (docs/api.md, Appointments): the practice system's appointments
 * of a window, each upserted as a PUT would be; those of the window (and location) it no longer
 * lists become `cancelled`. An item with errors is reported by its index and refuses nothing
 * else. One transaction: the upserts a statement per chunk of 500, then the cancels; syncs of one
 * account take turns.
 */
@Injectable()
export class AppointmentsSync {
  private readonly logger = new Logger(AppointmentsSync.name);

  constructor(
    private readonly database: Database,
    private readonly appointments: AppointmentsRepository,
    private readonly intake: AppointmentIntake,
    private readonly loop: AppointmentChecksLoop,
  ) {}

  /** The sync, as `actor`'s (who stored the appointments decides whether checks run by themselves). */
  async sync(
    accountId: string,
    body: unknown,
    actor: AppointmentActor,
  ): Promise<SyncResultResponse> {
    const sent = (body === undefined ? {} : body) as Record<string, unknown>;
    if (typeof sent !== 'object' || sent === null || Array.isArray(sent))
      throw ValidationFailed.request(MSG.object);
    const { window, errors: refusal } = await checkWindow(sent);
    const refused = Object.keys(refusal).length > 0;
    const items = refused ? [] : await checkItems(sent.appointments as unknown[]);
    const data = await this.intake.lookup(
      accountId,
      items.flatMap((i) => (i.body ? [i.body] : [])),
    );
    // The window's location, named as an item's would be: an unknown code refuses the sync.
    const code = refusal.location_code ? undefined : textOf(sent.location_code);
    const location = code ? data.locations.find((l) => l.code === code) : undefined;
    if (code && !location)
      addFieldError(refusal, ['location_code'], APPOINTMENT_MESSAGES.unknownLocation(code));
    if (Object.keys(refusal).length > 0 || !window) throw new ValidationFailed(refusal);

    const errors: SyncResultResponse['errors'] = [];
    const valid: StoredValues[] = [];
    const by = storedBy(actor);
    for (const item of items) {
      const intake = item.body ? this.intake.resolve(item.externalId ?? '', item.body, data) : null;
      if (intake?.values && Object.keys(item.errors).length === 0)
        valid.push({ ...intake.values, ...by });
      else errors.push({ index: item.index, errors: { ...item.errors, ...intake?.errors } });
    }
    // Every id the sync names is listed, an item refused for other fields included: its stored
    // appointment is the practice's still, not one to cancel.
    const listed = [
      ...new Set(items.flatMap((i) => (i.externalId === null ? [] : [i.externalId]))),
    ];
    valid.sort((a, b) =>
      a.external_id < b.external_id ? -1 : a.external_id > b.external_id ? 1 : 0,
    );

    const counts = await this.database.transaction(async (tx) => {
      await this.appointments.lockSyncs(accountId, tx);
      let created = 0;
      let updated = 0;
      for (let i = 0; i < valid.length; i += SYNC_CHUNK) {
        const chunk = await this.appointments.upsertChunk(
          accountId,
          valid.slice(i, i + SYNC_CHUNK),
          tx,
        );
        created += chunk.created;
        updated += chunk.updated;
      }
      const cancelled = await this.appointments.cancelUnlisted(
        accountId,
        { from: window.from, to: window.to, locationId: location?.id ?? null },
        listed,
        tx,
      );
      return { created, updated, cancelled };
    });
    const result = {
      created: counts.created,
      updated: counts.updated,
      unchanged: valid.length - counts.created - counts.updated,
      cancelled: counts.cancelled,
      errors,
    };
    this.logger.log({ accountId, ...result, errors: errors.length }, 'appointments synced');
    // Bookings are checked at once (docs/api.md, Appointments), not at the loop's next tick.
    if (result.created + result.updated > 0) this.loop.kick();
    return result;
  }
}

/**
 * The sync's own fields: the window (`from`, `to`, `location_code`) and the list itself. Any
 * error here refuses the whole sync (400), and no item is looked at.
 */
async function checkWindow(
  sent: Record<string, unknown>,
): Promise<{ window: SyncWindowDto | null; errors: ErrorTree }> {
  let window: SyncWindowDto | null = null;
  let errors: ErrorTree = {};
  try {
    window = (await pipe.transform(
      { from: sent.from, to: sent.to, location_code: sent.location_code },
      { type: 'body', metatype: SyncWindowDto },
    )) as SyncWindowDto;
  } catch (e) {
    if (!(e instanceof ValidationFailed)) throw e;
    errors = e.errors;
  }
  if (window) windowErrors(window.from, window.to, errors);
  const list = sent.appointments;
  const listError =
    list === undefined || list === null
      ? MSG.required
      : !Array.isArray(list)
        ? MSG.list
        : list.length > MAX_SYNC_ITEMS
          ? MSG.maxItems(MAX_SYNC_ITEMS)
          : null;
  if (listError) addFieldError(errors, ['appointments'], listError);
  return { window, errors };
}

/**
 * Each item on its own, a slice at a time (yielding to the event loop between slices): its shape,
 * its `external_id` (the path's rules; listed once), its body as a PUT's.
 */
async function checkItems(list: unknown[]): Promise<CheckedItem[]> {
  const checked: CheckedItem[] = [];
  const seen = new Set<string>();
  for (let offset = 0; offset < list.length; offset += CHECK_SLICE) {
    for (let index = offset; index < Math.min(offset + CHECK_SLICE, list.length); index++) {
      const item: unknown = list[index];
      if (typeof item !== 'object' || item === null || Array.isArray(item)) {
        checked.push({ index, externalId: null, body: null, errors: { $: [MSG.object] } });
        continue;
      }
      const { external_id: externalId, ...rest } = item as Record<string, unknown>;
      const errors = (await externalIdErrors(externalId)) ?? {};
      let id: string | null = null;
      if (Object.keys(errors).length === 0) {
        id = externalId as string;
        if (seen.has(id)) addFieldError(errors, ['external_id'], APPOINTMENT_MESSAGES.listedTwice);
        seen.add(id);
      }
      checked.push({ index, externalId: id, body: await checkBody(rest), errors });
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  return checked;
}

/** A sent text as the field decorators hold it (trimmed); anything else → undefined. */
function textOf(value: unknown): string | undefined {
  return typeof value === 'string' ? value.trim() : undefined;
}
