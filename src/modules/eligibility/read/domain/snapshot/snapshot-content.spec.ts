import type { Location } from '@/modules/accounts';
import type { TaskView } from '@/modules/verification';
import type { SnapshotPlanJson } from './snapshot-benefits';
import { snapshotDocument, type SnapshotParts, type SnapshotSection } from './snapshot-content';
import { renderSnapshot } from './snapshot.pdf';
import { SNAPSHOT_PLAN as PLAN } from '../../../../../../test/support/snapshot-plan';

const LOCATION = {
  code: 'LOC7K2M9QXA',
  title: 'Main office',
  organizationName: 'Clear Sight Optometry',
  npi: '1234567893',
  addressLine1: '12 Lamar Blvd',
  addressLine2: null,
  city: 'Austin',
  state: 'TX',
  zipcode: '78701',
  renderingNpi: '1245319599',
  renderingFirstName: 'Alan',
  renderingLastName: 'Smith',
} as unknown as Location;

function parts(over: Partial<SnapshotParts> = {}): SnapshotParts {
  const person = {
    id: 97,
    full_name: 'Maria Garcia',
    dob: '1984-06-15',
    sex: 'female',
    member_id: 'VSP123',
    type: 'self',
    address: null,
    is_active: true,
    plan: PLAN,
  };
  const result = {
    id: 41,
    status: 'active',
    plan_name: 'VSP Choice',
    plan_group: 'Acme',
    plan_group_id: 'GRP-1',
    plan_begin_date: '2026-01-01',
    plan_end_date: '2026-12-31',
    plan_refresh_date: '2027-01-01',
    insurer_code: 'insurer:vision:vsp',
    persons: [person],
  };
  return {
    uid: 'visit-1',
    body: {
      status: 'complete',
      error_code: null,
      error_detail: null,
      results: [result],
      insurers: [
        {
          insurer_code: 'insurer:vision:vsp',
          state: 'found',
          result_ids: [41],
          detail: null,
          finished_at: '2026-11-24T15:10:00.000Z',
          verification: {
            task_id: 'task-1',
            state: 'completed',
            due_by: '2026-11-24T18:00:00.000Z',
          },
        },
      ],
    },
    request: {
      createdAt: new Date('2026-11-24T15:00:00Z'),
      completedAt: new Date('2026-11-24T15:10:00Z'),
      query: { firstName: 'Maria', lastName: 'Garcia', dob: '1984-06-15' },
    },
    location: LOCATION,
    chosen: { result, person },
    exchanges: [],
    tasks: new Map([
      [
        'task-1',
        {
          evidence: {
            source: 'portal',
            reference_number: null,
            representative: null,
            checked_at: '2026-11-24T15:04:00Z',
          },
          failure_reason: null,
          detail: null,
        } as unknown as TaskView,
      ],
    ]),
    printedAt: new Date('2026-11-25T09:00:00Z'),
    ...over,
  };
}

const section = (sections: SnapshotSection[], heading: string) =>
  sections.find((s) => s.heading === heading);

describe('the snapshot document', () => {
  it('names the practice with its NPI and rendering provider, and how a person checked', () => {
    const doc = snapshotDocument(parts());
    expect(section(doc.sections, 'Practice')?.fields).toEqual([
      ['Name', 'Clear Sight Optometry'],
      ['NPI', '1234567893'],
      ['Location', 'Main office (LOC7K2M9QXA)'],
      ['Address', '12 Lamar Blvd, Austin, TX 78701'],
      ['Rendering provider', 'Alan Smith (NPI 1245319599)'],
    ]);
    expect(section(doc.sections, 'How it was checked: VSP Vision Care')?.fields).toEqual([
      [
        'Method',
        "Checked by a person on the insurer's provider portal (assisted verification of VSP Vision Care)",
      ],
      ['Reference number', null],
      ['Representative', null],
      ['Checked by them at', '2026-11-24 15:04 UTC'],
      ['Verification task', 'task-1'],
    ]);
    expect(doc.sections.map((s) => s.heading)).toEqual([
      'Practice',
      'Patient',
      'Insurer and plan',
      'The check',
      'How it was checked: VSP Vision Care',
      'Benefits',
      'How the next eligible dates were found',
    ]);
  });

  it('prints a check a person has not answered yet as waiting, with its task', () => {
    const p = parts();
    const waiting = {
      ...p.body.insurers![0],
      state: 'waiting_for_person' as const,
      result_ids: [],
      finished_at: null,
    };
    const doc = snapshotDocument({
      ...p,
      chosen: null,
      body: { ...p.body, status: 'processing', results: null, insurers: [waiting] },
    });
    expect(section(doc.sections, 'How it was checked: VSP Vision Care')?.fields).toEqual([
      ['Method', 'Waiting for a person to check VSP Vision Care (assisted verification)'],
      ['Verification task', 'task-1, due by 2026-11-24 18:00 UTC'],
    ]);
    expect(section(doc.sections, 'The check')?.fields?.[1]).toEqual([
      'Status',
      'Processing: not answered yet',
    ]);
    expect(section(doc.sections, 'Insurers asked')?.table?.rows).toEqual([
      {
        cells: ['VSP Vision Care', 'A person is checking', 'Task due by 2026-11-24 18:00 UTC', ''],
      },
    ]);
  });

  it('prints a complete check that still waits for people as still checking, not complete', () => {
    const p = parts();
    const entry = (code: string, state: 'no_plan' | 'waiting_for_person') => ({
      ...p.body.insurers![0],
      insurer_code: code,
      state,
      result_ids: [],
      finished_at: null,
    });
    const insurers = [
      entry('insurer:demo:vision', 'no_plan'),
      entry('insurer:vision:vsp', 'waiting_for_person'),
      entry('insurer:vision:eye_med', 'waiting_for_person'),
    ];
    const doc = snapshotDocument({
      ...p,
      chosen: null,
      body: { ...p.body, results: [], insurers },
    });
    expect(section(doc.sections, 'The check')?.fields?.[1]).toEqual([
      'Status',
      'People still checking VSP Vision Care and EyeMed',
    ]);
    // The due time in words, never the API's ISO instant.
    const waiting = section(doc.sections, 'Insurers asked')?.table?.rows[1].cells;
    expect(waiting?.slice(0, 3)).toEqual([
      'VSP Vision Care',
      'A person is checking',
      'Task due by 2026-11-24 18:00 UTC',
    ]);
    const done = snapshotDocument({
      ...p,
      chosen: null,
      body: { ...p.body, results: [], insurers: [insurers[0]] },
    });
    expect(section(done.sections, 'The check')?.fields?.[1]).toEqual(['Status', 'Complete']);
  });

  it('renders a long tree over several numbered pages', async () => {
    const many = Array.from({ length: 120 }, (_, i) => ({
      benefit_code: `materials.option_${i}`,
      refresh_date: '2027-01-01',
      copayment: [{ value: `${i}.0000` }],
    }));
    const plan = { ...PLAN, items: [...PLAN.items, ...many] } as SnapshotPlanJson;
    const p = parts();
    const pdf = await renderSnapshot(
      snapshotDocument({ ...p, chosen: { ...p.chosen!, person: { ...p.chosen!.person, plan } } }),
      p.printedAt,
    );
    const text = pdf.toString('latin1');
    expect(text.startsWith('%PDF-')).toBe(true);
    expect((text.match(/\/Type \/Page\b/g) ?? []).length).toBeGreaterThanOrEqual(3);
  });
});
