import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { CreateEstimateDto } from './dto/create-estimate.dto';
import { estimateReimbursement } from '../domain/estimate.rules';
import { EXAMPLE_INLINE_REQUEST, EXAMPLE_RESPONSE } from './estimate.examples';
import { planFromJson, PlanJson } from '@/lib/benefits';

describe('the OpenAPI worked example', () => {
  it('is a valid request whose answer is exactly the documented one', async () => {
    const dto = plainToInstance(CreateEstimateDto, EXAMPLE_INLINE_REQUEST);
    await expect(validate(dto, { whitelist: true })).resolves.toEqual([]);
    const answer = estimateReimbursement(
      planFromJson(dto.plan as unknown as PlanJson),
      'oon',
      dto.services.map((s) => ({ codes: s.codes, cost: s.cost, quantity: s.quantity ?? 1 })),
    );
    expect(answer).toEqual(EXAMPLE_RESPONSE);
  });
});
