import { Injectable, type Type } from '@nestjs/common';
import { DemoVisionConnector } from '@/modules/insurers/domain/demo/demo-vision.connector';
import {
  ConnectorContext,
  DetailsOutcome,
  InsurerConnector,
  InsurerUnavailableError,
  MemberQuery,
  OutcomeWithoutPlans,
  PlanDetailsQuery,
  SearchOutcome,
} from '@/modules/insurers/domain/insurer-connector';
import { InsurerConnectorFor } from '@/modules/insurers/domain/insurer-registry.service';

/**
 * What a scripted insurer does on one call: answer with the sandbox's plan, refuse for now
 * (InsurerUnavailableError), refuse the practice's setup (`rejected`, never retried), know no
 * such member, break (any other error), ask to be asked again later, or never answer (the
 * caller's timeout must end the call).
 */
export type FakeReply =
  'found' | 'unavailable' | 'rejected' | 'not_found' | 'broken' | 'hang' | { deferMs: number };

/** A connector a test scripts call by call, recording every call. */
export class ScriptedConnector implements InsurerConnector {
  readonly calls: { kind: 'search' | 'details'; query: MemberQuery; context: ConnectorContext }[] =
    [];
  /** Replies for the next calls, in order; `defaultReply` after them. */
  replies: FakeReply[] = [];
  defaultReply: FakeReply = 'found';
  private readonly sandbox = new DemoVisionConnector();

  async search(query: MemberQuery, context: ConnectorContext): Promise<SearchOutcome> {
    this.calls.push({ kind: 'search', query, context });
    const deferred = await this.reply();
    if (deferred) return deferred;
    return this.sandbox.search(query, { ...context, elapsedMs: Number.MAX_SAFE_INTEGER });
  }

  async fetchPlanDetails(
    details: PlanDetailsQuery,
    context: ConnectorContext,
  ): Promise<DetailsOutcome> {
    this.calls.push({ kind: 'details', query: details.query, context });
    const deferred = await this.reply();
    if (deferred) return deferred;
    return this.sandbox.fetchPlanDetails(details, {
      ...context,
      elapsedMs: Number.MAX_SAFE_INTEGER,
    });
  }

  reset(): void {
    this.calls.length = 0;
    this.replies = [];
    this.defaultReply = 'found';
  }

  private async reply(): Promise<OutcomeWithoutPlans | null> {
    const reply = this.replies.shift() ?? this.defaultReply;
    if (reply === 'found') return null;
    if (reply === 'rejected') return { kind: 'rejected', reason: 'scripted: provider not on file' };
    if (reply === 'not_found') return { kind: 'not_found', reason: 'scripted: no such member' };
    if (reply === 'unavailable') throw new InsurerUnavailableError('scripted outage');
    if (reply === 'broken') throw new Error('scripted connector bug');
    if (reply === 'hang') return new Promise<never>(() => undefined);
    return { kind: 'deferred', retryAfterMs: reply.deferMs };
  }
}

/**
 * A ScriptedConnector provider for insurer `code` (pass it in `providers`; `app.get` it).
 * `usesAccountCredentials`: it signs in with the account's stored login (the Passwords page asks).
 */
export function fakeConnector(
  code: string,
  options: { usesAccountCredentials?: boolean } = {},
): Type<ScriptedConnector> {
  @Injectable()
  @InsurerConnectorFor(code)
  class FakeConnector extends ScriptedConnector {
    readonly usesAccountCredentials = options.usesAccountCredentials ?? false;
  }
  Object.defineProperty(FakeConnector, 'name', { value: `FakeConnector(${code})` });
  return FakeConnector;
}
