import { IntField } from '@/platform/http/validation/fields';

/** `?result_id=&person_id=` of the eligibility snapshot (docs/api.md, Eligibility): both, or neither. */
export class SnapshotQuery {
  @IntField({
    acceptString: true,
    min: 1,
    max: 2_147_483_647,
    example: 41,
    description:
      "The result's `id` in the V2 answer; with `person_id`, the snapshot prints that person's " +
      'plan and benefits. Without both, it prints the check as a whole (no plan).',
  })
  result_id?: number | null;

  @IntField({
    acceptString: true,
    min: 1,
    max: 2_147_483_647,
    example: 97,
    description: "The person's `id` in that result.",
  })
  person_id?: number | null;
}
