import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { NextEligibleRequestDto } from './dto/next-eligible.dto';
import { NextEligibleResponse } from './dto/next-eligible.response';
import {
  EXAMPLE_NEXT_ELIGIBLE_REQUEST,
  EXAMPLE_NEXT_ELIGIBLE_RESPONSE,
} from './next-eligible.examples';
import type { RateLimiter } from '@/modules/auth';
import { NextEligibleService } from '../domain/next-eligible.service';

// compute() never spends: the cost budget is ask()'s (test/next-eligible-cost.e2e-spec.ts).
const unusedLimiter = {} as RateLimiter;

describe('the OpenAPI worked example of next eligible dates', () => {
  it('is a valid request whose answer is exactly the documented one', async () => {
    const dto = plainToInstance(NextEligibleRequestDto, EXAMPLE_NEXT_ELIGIBLE_REQUEST);
    await expect(validate(dto, { whitelist: true })).resolves.toEqual([]);
    expect(NextEligibleResponse.from(new NextEligibleService(unusedLimiter).compute(dto))).toEqual(
      EXAMPLE_NEXT_ELIGIBLE_RESPONSE,
    );
  });
});
