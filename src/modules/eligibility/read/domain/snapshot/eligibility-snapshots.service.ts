import { Injectable } from '@nestjs/common';
import { AccountsService } from '@/modules/accounts';
import { type TaskView, VerificationTasks } from '@/modules/verification';
import { ErrorCollector, NotFoundError } from '@/platform/kernel/errors';
import { MSG } from '@/platform/kernel/messages';
import { REQUEST_UID_MAX_LENGTH } from '../../../api/dto/create-eligibility.dto';
import { EligibilityQueryService } from '../eligibility-query.service';
import { InsurerExchangeLog } from '../../../run/domain/insurer-exchange-log';
import type { SnapshotBody } from './snapshot-body';
import { snapshotDocument, type SnapshotParts } from './snapshot-content';
import { renderSnapshot } from './snapshot.pdf';

/** Which result and person to print; neither prints the check as a whole. */
export interface SnapshotTarget {
  result_id?: number | null;
  person_id?: number | null;
}

const notFound = (uid: string) => new NotFoundError(`Eligibility request ${uid} not found.`);

/**
 * The eligibility snapshot (docs/api.md, Eligibility): one check of the account printed for a
 * person to read and file, from its stored V2 answer, the location it was made for, the calls to
 * insurers and the verification tasks behind assisted answers. Another account's request, and a
 * result or person the answer does not hold, are not found.
 */
@Injectable()
export class EligibilitySnapshots {
  constructor(
    private readonly queries: EligibilityQueryService,
    private readonly exchanges: InsurerExchangeLog,
    private readonly accounts: AccountsService,
    private readonly tasks: VerificationTasks,
  ) {}

  async pdf(
    accountId: string,
    uid: string,
    target: SnapshotTarget,
  ): Promise<{ filename: string; pdf: Buffer }> {
    const chosen = pairOf(target);
    if (uid.length > REQUEST_UID_MAX_LENGTH) throw notFound(uid);
    const request = await this.queries.findRequest(accountId, uid);
    if (!request) throw notFound(uid);
    const body = JSON.parse(await this.queries.getBody(accountId, uid, 'v2')) as SnapshotBody;
    const parts: SnapshotParts = {
      uid,
      body,
      request: {
        createdAt: request.createdAt,
        completedAt: request.completedAt,
        query: request.query,
      },
      location: await this.accounts.getLocationById(accountId, request.locationId),
      chosen: chosen && pick(uid, body, chosen.resultId, chosen.personId),
      exchanges: await this.exchanges.forRequest(accountId, request.id),
      tasks: await this.tasksOf(accountId, body),
      printedAt: new Date(),
    };
    const pdf = await renderSnapshot(snapshotDocument(parts), parts.printedAt);
    const name = uid.replace(/[^A-Za-z0-9._-]/g, '_').slice(0, 80);
    const suffix = chosen ? `-${chosen.resultId}-${chosen.personId}` : '';
    return { filename: `eligibility-${name}${suffix}.pdf`, pdf };
  }

  /** The tasks behind the answer's assisted insurers (their evidence); an erased one is left out. */
  private async tasksOf(accountId: string, body: SnapshotBody): Promise<Map<string, TaskView>> {
    const out = new Map<string, TaskView>();
    for (const entry of body.insurers ?? []) {
      const id = entry.verification?.task_id;
      if (!id || out.has(id)) continue;
      try {
        out.set(id, await this.tasks.get(accountId, id));
      } catch (e) {
        if (!(e instanceof NotFoundError)) throw e;
      }
    }
    return out;
  }
}

/** Both ids, or neither: one without the other is a field error on the missing one. */
function pairOf(target: SnapshotTarget): { resultId: number; personId: number } | null {
  const resultId = target.result_id ?? null;
  const personId = target.person_id ?? null;
  if (resultId === null && personId === null) return null;
  const errors = new ErrorCollector();
  if (resultId === null) errors.add('result_id', MSG.required);
  if (personId === null) errors.add('person_id', MSG.required);
  errors.throwIfAny();
  return { resultId: resultId!, personId: personId! };
}

function pick(uid: string, body: SnapshotBody, resultId: number, personId: number) {
  const result = (body.results ?? []).find((r) => r.id === resultId);
  if (!result) throw new NotFoundError(`Result ${resultId} is not in eligibility request ${uid}.`);
  const person = result.persons.find((p) => p.id === personId);
  if (!person)
    throw new NotFoundError(
      `Person ${personId} is not in result ${resultId} of eligibility request ${uid}.`,
    );
  return { result, person };
}
