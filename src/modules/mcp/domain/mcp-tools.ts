import { Injectable, Logger, type Type } from '@nestjs/common';
import { DomainError, ValidationFailed } from '@/platform/kernel/errors';
import { grants } from '@/platform/http/scopes';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { isoDate, todayIso } from '@/platform/kernel/time';
import { type AuditContext, AuditService } from '@/modules/audit';
import {
  CreateEligibilityDto,
  EligibilityQueryService,
  EligibilityService,
} from '@/modules/eligibility';
import { CreateQuoteDto, QuotesService } from '@/modules/quotes';
import { AppointmentsService, keyActor, ListAppointmentsQuery } from '@/modules/appointments';
import { InsurerDirectory } from '@/modules/insurers';
import { atRisk, compactResult, explainBenefits } from './mcp-answers';
import { DEFINITIONS, type McpToolDefinition } from './mcp-tool-schemas';

/** Who calls a tool: the request's API key, as the key guard authenticated it. */
export interface McpCaller {
  accountId: string;
  apiKeyId: string;
  scopes: readonly string[];
  /** The request's actor, id and address: every tool call is an audit event. */
  audit: AuditContext;
  /** Aborted when the client goes away: a waiting check_eligibility stops waiting. */
  signal?: AbortSignal;
}

/** A tool's answer, or a tool error: `isError` with the words (docs/api.md, MCP). */
export interface McpToolAnswer {
  isError: boolean;
  content: { type: 'text'; text: string }[];
  structuredContent?: Record<string, unknown>;
}

type Args = Record<string, unknown>;
type Handler = (caller: McpCaller, args: Args) => Promise<Record<string, unknown>>;

/** The longest a check_eligibility call waits for its answer. */
export const CHECK_WAIT_MAX_SECONDS = 50;
/** How often a waiting check_eligibility looks at its request. */
const POLL_MS = 200;

const pipe = createValidationPipe();

/** `args` validated as the JSON route validates its body (the same DTO, the same 400 words). */
async function validated<T extends object>(type: Type<T>, args: Args): Promise<T> {
  return (await pipe.transform(args, { type: 'body', metatype: type })) as T;
}

/** `YYYY-MM-DD` naming a day of the calendar. */
function isCalendarDay(day: string): boolean {
  const at = Date.parse(`${day}T00:00:00Z`);
  return /^\d{4}-\d{2}-\d{2}$/.test(day) && !isNaN(at) && isoDate(new Date(at)) === day;
}

function requestUidOf(args: Args): string {
  const uid = args.request_uid;
  if (typeof uid !== 'string' || uid.trim() === '')
    throw ValidationFailed.field('request_uid', 'This field is required.');
  return uid;
}

/**
 * The MCP tools (docs/api.md, MCP): each wraps JSON routes through their services, needs those
 * routes' scopes, answers no more than they do, is bound to the key's account and is an audit
 * event (`mcp_tool` `call`, with the tool's name) besides the events of the data it reads or
 * makes, as the JSON routes record them.
 */
@Injectable()
export class McpTools {
  private readonly logger = new Logger(McpTools.name);
  private readonly handlers: Record<string, Handler>;
  readonly definitions: McpToolDefinition[];

  constructor(
    private readonly eligibility: EligibilityService,
    private readonly queries: EligibilityQueryService,
    private readonly quotes: QuotesService,
    private readonly appointments: AppointmentsService,
    private readonly directory: InsurerDirectory,
    private readonly audit: AuditService,
  ) {
    this.definitions = DEFINITIONS;
    this.handlers = {
      check_eligibility: (c, a) => this.checkEligibility(c, a),
      get_eligibility: (c, a) => this.getEligibility(c, a),
      explain_benefits: (c, a) => this.explainBenefits(c, a),
      quote_materials: (c, a) => this.quoteMaterials(c, a),
      schedule_at_risk: (c, a) => this.scheduleAtRisk(c, a),
      list_insurers: (c) => this.listInsurers(c),
    };
  }

  /** The tools the caller's key may use: those whose every scope it holds. */
  allowed(caller: McpCaller): McpToolDefinition[] {
    return this.definitions.filter((d) => d.scopes.every((s) => grants(caller.scopes, s)));
  }

  /**
   * Runs one tool the caller may use (the caller checked `allowed`). A refusal of its input or
   * a "not found" is a tool error naming it; anything else a tool error without details (logged).
   */
  async call(caller: McpCaller, name: string, args: Args): Promise<McpToolAnswer> {
    await this.record(caller, 'call', 'mcp_tool', name);
    try {
      const answer = await this.handlers[name](caller, args ?? {});
      return {
        isError: false,
        content: [{ type: 'text', text: JSON.stringify(answer) }],
        structuredContent: answer,
      };
    } catch (e) {
      if (e instanceof DomainError) {
        const body = e.body();
        return {
          isError: true,
          content: [{ type: 'text', text: JSON.stringify(body) }],
          structuredContent: body,
        };
      }
      this.logger.error({ err: (e as Error).message, tool: name }, 'MCP tool failed');
      return {
        isError: true,
        content: [{ type: 'text', text: JSON.stringify({ detail: 'Internal server error.' }) }],
      };
    }
  }

  private record(
    caller: McpCaller,
    action: string,
    resourceType: string,
    resourceId: string | null,
  ): Promise<void> {
    return this.audit.record({ ...caller.audit, action, resourceType, resourceId });
  }

  private async checkEligibility(caller: McpCaller, args: Args) {
    const { wait_seconds: wait, ...body } = args;
    if (
      wait !== undefined &&
      (typeof wait !== 'number' ||
        !Number.isInteger(wait) ||
        wait < 0 ||
        wait > CHECK_WAIT_MAX_SECONDS)
    )
      throw ValidationFailed.field(
        'wait_seconds',
        `Ensure this value is an integer from 0 to ${CHECK_WAIT_MAX_SECONDS}.`,
      );
    const dto = await validated(CreateEligibilityDto, body);
    const uid = await this.eligibility.create(caller.accountId, dto);
    await this.record(caller, 'create', 'eligibility_request', uid);
    const deadline = Date.now() + (wait ?? CHECK_WAIT_MAX_SECONDS) * 1000;
    for (;;) {
      const body = JSON.parse(await this.queries.getBody(caller.accountId, uid, 'v2')) as Args;
      if (body.status !== 'processing' || Date.now() >= deadline || caller.signal?.aborted) {
        if (body.status !== 'processing')
          await this.record(caller, 'read', 'eligibility_request', uid);
        return compactResult(body);
      }
      await new Promise((r) => setTimeout(r, Math.min(POLL_MS, deadline - Date.now())));
    }
  }

  private async v2Body(caller: McpCaller, uid: string): Promise<Args> {
    const { actor, requestId, ip } = caller.audit;
    // The read and its audit event in one statement, as the JSON GET does.
    const body = await this.queries.getBodyRecorded(
      { actor, requestId, ip, action: 'read', resourceType: 'eligibility_request' },
      uid,
      'v2',
    );
    return JSON.parse(body) as Args;
  }

  private async getEligibility(caller: McpCaller, args: Args) {
    return compactResult(await this.v2Body(caller, requestUidOf(args)));
  }

  private async explainBenefits(caller: McpCaller, args: Args) {
    return explainBenefits(await this.v2Body(caller, requestUidOf(args)), todayIso());
  }

  private async quoteMaterials(caller: McpCaller, args: Args) {
    const dto = await validated(CreateQuoteDto, args);
    const quote = (await this.quotes.create(caller.accountId, dto)) as unknown as Args;
    await this.record(caller, 'create', 'quote', String(quote.id));
    return quote;
  }

  private async scheduleAtRisk(caller: McpCaller, args: Args) {
    const day = args.date;
    if (typeof day !== 'string' || !isCalendarDay(day))
      throw ValidationFailed.field('date', 'Enter a valid date (YYYY-MM-DD).');
    const offset = args.utc_offset ?? '+00:00';
    if (typeof offset !== 'string' || !/^[+-]\d{2}:\d{2}$/.test(offset))
      throw ValidationFailed.field('utc_offset', 'Enter an offset such as -06:00.');
    const next = isoDate(new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000))!;
    const actor = keyActor({ apiKeyId: caller.apiKeyId, scopes: caller.scopes });
    const found: Args[] = [];
    let cursor: string | null = null;
    let seen = 0;
    do {
      const query = await validated(ListAppointmentsQuery, {
        from: `${day}T00:00:00${offset}`,
        to: `${next}T00:00:00${offset}`,
        ...(args.location_code !== undefined ? { location_code: args.location_code } : {}),
        limit: 200,
        ...(cursor ? { cursor } : {}),
      });
      const page = await this.appointments.list(caller.accountId, query, actor);
      seen += page.result.length;
      for (const a of page.result as unknown as Args[]) {
        const coverage = a.coverage as { state: string };
        if (a.status !== 'cancelled' && coverage.state !== 'active') found.push(atRisk(a));
      }
      cursor = page.next_cursor;
    } while (cursor && seen < 2_000);
    await this.record(caller, 'list', 'appointment', null);
    return { date: day, utc_offset: offset, appointments_seen: seen, at_risk: found };
  }

  private async listInsurers(caller: McpCaller) {
    const entries = await this.directory.list(caller.accountId);
    return {
      result: entries.map((e) => ({
        insurer_code: e.insurer_code,
        name: e.name,
        aliases: e.aliases,
        eligibility: e.eligibility,
      })),
    };
  }
}
