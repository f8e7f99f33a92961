import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import { ApiField, ApiNullable, DECIMAL4 } from '@/platform/http/api-docs';
import { NextCursorDoc } from '@/platform/http/pagination/page-query';
import { BENEFIT_FLAGS, BenefitFrequencyDoc, MaterialsDoc } from '@/lib/benefits';

/**
 * OpenAPI descriptions of plan designs (docs/api.md, Plan designs); PlanDesigns renders them. A
 * design's items are V2 benefit items without what a member used (no `*_accepted`, `*_reserved`,
 * `last_service_date`, `next_eligible_date`, `last_service`, `next_eligible`).
 */

class EntryDoc {
  @ApiPropertyOptional({ enum: BENEFIT_FLAGS, isArray: true, example: ['inn'] })
  flags?: string[];

  @ApiPropertyOptional({ example: 'reimbursed up to this amount' })
  comment?: string;
}

class DesignDoubleEntry extends EntryDoc {
  @ApiProperty({ example: '150.0000', pattern: DECIMAL4 }) value: string;
}

class DesignIntegerEntry extends EntryDoc {
  @ApiField('integer', { example: 1 }) value: number;
}

class DesignBooleanEntry extends EntryDoc {
  @ApiProperty({ example: true }) value: boolean;
}

const doubles = (description: string) =>
  ApiPropertyOptional({ type: [DesignDoubleEntry], description });

export class DesignItemDoc {
  @ApiProperty({ example: 'materials.frames' }) benefit_code: string;
  @ApiField('date', { example: '2027-01-01' }) refresh_date: string;
  @ApiProperty({ enum: BENEFIT_FLAGS, isArray: true, example: [] }) flags: string[];
  @ApiPropertyOptional({ example: 'One frame every 24 months.' }) comment?: string;
  @doubles('Fixed amount the member pays.') copayment?: DesignDoubleEntry[];
  @doubles('Percentage the member pays.') coinsurance?: DesignDoubleEntry[];
  @doubles('Amount the plan pays up to.') allowance?: DesignDoubleEntry[];
  @doubles('Discount as a fraction.') discount?: DesignDoubleEntry[];
  @doubles('Most the member pays, or the cap of a package item.')
  margin_limit?: DesignDoubleEntry[];
  @doubles('Deductible.') deductible?: DesignDoubleEntry[];
  @ApiPropertyOptional({ type: [DesignIntegerEntry], description: 'Units per benefit period.' })
  quantity?: DesignIntegerEntry[];
  @ApiPropertyOptional({ type: [DesignBooleanEntry] })
  is_authorization_required?: DesignBooleanEntry[];
  @ApiProperty({ type: () => [DesignItemDoc], description: 'Child benefits.' })
  items: DesignItemDoc[];
  @ApiField('date', { required: false, example: '2026-12-31' }) end_date?: string;
  @ApiPropertyOptional({
    type: BenefitFrequencyDoc,
    description: 'How often the plan allows the benefit (docs/api.md, Next eligible dates).',
  })
  frequency?: BenefitFrequencyDoc;
}

export class PlanDesignResponse {
  @ApiProperty({ format: 'uuid', example: '7c1e2f4a-93b5-4d0e-8a61-2b9f0c3d5e78' }) id: string;
  @ApiProperty({ example: 'insurer:vision:vsp' }) insurer_code: string;
  @ApiProperty({ example: 'VSP Choice', description: 'As the last task of the group gave it.' })
  plan_name: string;
  @ApiNullable('string', { example: 'Acme Manufacturing' }) plan_group: string | null;
  @ApiNullable('string', {
    example: 'GRP-104233',
    description: 'The design is kept per group id, else per group.',
  })
  plan_group_id: string | null;
  @ApiField('integer', {
    example: 3,
    description: 'How many completed tasks started from it (`plan_design_id`).',
  })
  used_count: number;
  @ApiNullable('date-time', {
    example: '2026-11-24T15:04:00.000+00:00',
    description: 'When a completed task last started from it; null before the first.',
  })
  last_used_at: string | null;
}

export class PlanDesignDetailResponse extends PlanDesignResponse {
  @ApiProperty({
    type: [DesignItemDoc],
    description:
      "The benefit tree of the group's last completed task (its first person's plan), without used values.",
  })
  items: DesignItemDoc[];

  @ApiProperty({
    type: MaterialsDoc,
    nullable: true,
    description:
      "The group's materials price list (docs/api.md, The counter): a verifier's, kept until " +
      'another gives one; answers of the group without their own list take it. Null: none yet.',
  })
  materials: MaterialsDoc | null;
}

export class PlanDesignListResponse {
  @ApiProperty({ type: [PlanDesignResponse] }) result: PlanDesignResponse[];
  @NextCursorDoc(null, '?cursor=')
  next_cursor: string | null;
}
