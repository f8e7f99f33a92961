import { planFromJson, planNotes } from '@/lib/benefits';
import type { ReportColumn, ReportRow } from '@/lib/pdf';
import type { Location } from '@/modules/accounts';
import { insurerName, type MemberQuery } from '@/modules/insurers';
import type { TaskView } from '@/modules/verification';
import { INSURER_STATE_WORDS, stillCheckedBy } from '../../../domain/insurer-entries';
import type { InsurerExchangeEntry } from '../../../run/domain/insurer-exchange-log';
import { BENEFIT_COLUMNS, benefitTable } from './snapshot-benefits';
import type { SnapshotBody, SnapshotPerson, SnapshotResult } from './snapshot-body';
import { type Field, howChecked, insurerErrors, instant } from './snapshot-how';

/** Everything a snapshot prints, gathered by EligibilitySnapshots. */
export interface SnapshotParts {
  uid: string;
  body: SnapshotBody;
  request: { createdAt: Date; completedAt: Date | null; query: Partial<MemberQuery> };
  location: Location | null;
  /** The result and person printed; null prints the check as a whole (no plan). */
  chosen: { result: SnapshotResult; person: SnapshotPerson } | null;
  exchanges: readonly InsurerExchangeEntry[];
  /** The verification tasks behind assisted answers, by id. */
  tasks: ReadonlyMap<string, TaskView>;
  printedAt: Date;
}

export interface SnapshotSection {
  heading: string;
  fields?: Field[];
  notes?: string[];
  table?: { columns: readonly ReportColumn[]; rows: ReportRow[] };
  bullets?: string[];
}

export interface SnapshotDocument {
  title: string;
  subtitle: string;
  footer: string;
  sections: SnapshotSection[];
}

const STATUS_WORDS: Record<string, string> = {
  processing: 'Processing: not answered yet',
  complete: 'Complete',
  error: 'Error',
  active: 'Active',
  inactive: 'Inactive',
  out_of_network: 'Out of network',
  unavailable: 'Unavailable',
};
const words = (status: string) =>
  Object.hasOwn(STATUS_WORDS, status) ? STATUS_WORDS[status] : status;

/**
 * The check's status in words: a `complete` answer still waiting for people (docs/api.md,
 * Universal Search insurer by insurer: `wait_for: "electronic"`) is not complete to its reader.
 */
function statusOf(body: SnapshotBody): string {
  const checking = body.status === 'complete' ? stillCheckedBy(body.insurers ?? []) : null;
  if (checking) return `People still checking ${checking}`;
  return [words(body.status), body.error_code].filter(Boolean).join(': ');
}

/**
 * The eligibility snapshot as sections for a person to read (docs/api.md, Eligibility): the
 * practice, the patient, the insurer and plan, when and how the check was made, its status, the
 * benefit table with next eligible dates, and the insurers' errors when any failed.
 */
export function snapshotDocument(parts: SnapshotParts): SnapshotDocument {
  const { body, chosen, location } = parts;
  const entries = body.insurers ?? [];
  const codes = chosen ? [chosen.result.insurer_code] : entries.map((e) => e.insurer_code);
  const entryOf = (code: string) => entries.find((e) => e.insurer_code === code);
  const practice = location ? location.organizationName || location.title : null;
  const sections: SnapshotSection[] = [
    {
      heading: 'Practice',
      fields: [
        ['Name', practice],
        ['NPI', location?.npi ?? null],
        ['Location', location ? `${location.title} (${location.code})` : null],
        ['Address', location ? locationAddress(location) : null],
        ['Rendering provider', location ? renderingOf(location) : null],
      ],
    },
    patientSection(parts),
  ];
  if (chosen) sections.push(...planSections(chosen.result, chosen.person));
  const checked = chosen ? entryOf(chosen.result.insurer_code)?.finished_at : null;
  sections.push({
    heading: 'The check',
    fields: [
      ['Request', parts.uid],
      ['Status', statusOf(body)],
      ...(body.error_detail ? ([['Why', body.error_detail]] as Field[]) : []),
      ['Requested at', instant(parts.request.createdAt)],
      ['Checked at', instant(checked ?? parts.request.completedAt)],
      ['Printed at', instant(parts.printedAt)],
    ],
    notes: body.purged
      ? ['The patient data of this check was erased after the retention period.']
      : undefined,
  });
  for (const code of codes) {
    const entry = entryOf(code);
    const ref = entry?.verification?.task_id;
    const task = ref ? (parts.tasks.get(ref) ?? null) : null;
    const calls = parts.exchanges.filter((x) => x.insurerCode === code);
    sections.push({
      heading: `How it was checked: ${insurerName(code)}`,
      fields: howChecked(code, entry, calls, task),
    });
  }
  if (chosen) sections.push(...benefitSections(chosen.person));
  if (!chosen || entries.length > 1)
    sections.push({
      heading: 'Insurers asked',
      table: {
        columns: [
          { title: 'Insurer', width: 150 },
          { title: 'State', width: 100 },
          { title: 'Detail', width: 192 },
          { title: 'Settled at', width: 90 },
        ],
        rows: entries.map((e) => ({
          cells: [
            insurerName(e.insurer_code),
            INSURER_STATE_WORDS[e.state] ?? e.state,
            // The API's sentence carries the due time as an ISO instant: in words here.
            e.state === 'waiting_for_person' && e.verification
              ? `Task due by ${instant(e.verification.due_by)}`
              : (e.detail ?? ''),
            instant(e.finished_at) ?? '',
          ],
        })),
      },
    });
  const errors = insurerErrors(
    entries.filter((e) => codes.includes(e.insurer_code) || e.state === 'failed'),
    parts.exchanges,
    parts.tasks,
  );
  if (errors.length || body.status === 'error')
    sections.push({
      heading: 'Insurer errors',
      bullets: errors.length ? errors : [body.error_detail ?? 'The check failed.'],
    });
  const who = chosen?.person.full_name ?? nameOf(parts.request.query);
  return {
    title: 'Eligibility snapshot',
    subtitle: [who, chosen ? insurerName(chosen.result.insurer_code) : null, practice]
      .filter(Boolean)
      .join(' · '),
    footer: `Eligibility snapshot ${parts.uid.slice(0, 80)} · printed ${instant(parts.printedAt)}`,
    sections,
  };
}

function patientSection(parts: SnapshotParts): SnapshotSection {
  const person = parts.chosen?.person;
  const q = parts.request.query;
  const subscriber = q.subscriber
    ? `${q.subscriber.firstName} ${q.subscriber.lastName}, born ${q.subscriber.dob}` +
      (q.subscriber.memberId ? `, member ID ${q.subscriber.memberId}` : '')
    : null;
  if (!person)
    return {
      heading: 'Patient (as asked)',
      fields: [
        ['Name', nameOf(q)],
        ['Date of birth', q.dob ?? null],
        ['Member ID', q.memberId ?? null],
        ['ZIP code', q.zipcode ?? null],
        ...(subscriber ? ([['Subscriber', subscriber]] as Field[]) : []),
      ],
    };
  const holder = parts.chosen!.result.persons.find((p) => p.type === 'self' && p.id !== person.id);
  return {
    heading: 'Patient',
    fields: [
      ['Name', person.full_name],
      ['Date of birth', person.dob],
      ['Sex', person.sex],
      ['Member ID', person.member_id],
      ['Relationship', person.type === 'self' ? 'Self (the subscriber)' : person.type],
      ...(holder
        ? ([
            [
              'Subscriber',
              `${holder.full_name}${holder.member_id ? `, member ID ${holder.member_id}` : ''}`,
            ],
          ] as Field[])
        : subscriber
          ? ([['Subscriber', subscriber]] as Field[])
          : []),
      [
        'Address',
        person.address &&
          addressLine(
            person.address.line1,
            person.address.line2,
            person.address.city,
            person.address.state,
            person.address.zipcode,
          ),
      ],
      ['Coverage', person.is_active === false ? 'Inactive' : 'Active'],
    ],
  };
}

function planSections(result: SnapshotResult, person: SnapshotPerson): SnapshotSection[] {
  const plan = person.plan;
  const notes = planNotes(planFromJson(plan));
  return [
    {
      heading: 'Insurer and plan',
      fields: [
        ['Insurer', `${insurerName(result.insurer_code)} (${result.insurer_code})`],
        ['Plan', result.plan_name],
        ['Group', [result.plan_group, result.plan_group_id].filter(Boolean).join(', ') || null],
        ['Plan status', words(result.status)],
        ['Plan dates', `${result.plan_begin_date} to ${result.plan_end_date ?? 'no end date'}`],
        ['Renews', result.plan_refresh_date],
        [
          'Benefits listed',
          plan.insurer_state === 'inn' ? 'In network only' : 'In and out of network',
        ],
        ...(notes.length ? ([['Whole plan', notes.join('; ')]] as Field[]) : []),
      ],
    },
  ];
}

function benefitSections(person: SnapshotPerson): SnapshotSection[] {
  const { rows, explanations } = benefitTable(person.plan);
  const sections: SnapshotSection[] = [
    {
      heading: 'Benefits',
      notes: rows.length
        ? [
            'Values in and out of network ("In", "Out") where they differ; a benefit under ' +
              'another shows what it inherits. — means none stated.',
          ]
        : ['The insurer listed no benefits.'],
      table: rows.length ? { columns: BENEFIT_COLUMNS, rows } : undefined,
    },
  ];
  if (explanations.length)
    sections.push({ heading: 'How the next eligible dates were found', bullets: explanations });
  return sections;
}

function nameOf(q: Partial<MemberQuery>): string | null {
  return [q.firstName, q.lastName].filter(Boolean).join(' ') || null;
}

/** "412 Oak Street, Apt 4, Austin, TX 78701", or null without a street. */
function addressLine(
  line1: string | null | undefined,
  line2: string | null | undefined,
  city: string | null,
  state: string | null,
  zipcode: string | null,
): string | null {
  if (!line1) return null;
  return `${[line1, line2, city].filter(Boolean).join(', ')}, ${[state, zipcode].filter(Boolean).join(' ')}`;
}

const locationAddress = (l: Location) =>
  addressLine(l.addressLine1, l.addressLine2, l.city, l.state, l.zipcode);

function renderingOf(l: Location): string | null {
  if (!l.renderingNpi) return null;
  return `${[l.renderingFirstName, l.renderingLastName].filter(Boolean).join(' ')} (NPI ${l.renderingNpi})`;
}
