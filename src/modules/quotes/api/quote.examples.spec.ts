import { plainToInstance } from 'class-transformer';
import { validate } from 'class-validator';
import { planFromJson, type PlanJson } from '@/lib/benefits';
import { CreateQuoteDto } from './dto/create-quote.dto';
import { availabilityOn } from '../domain/quote-day';
import { priceOrder } from '../domain/quote.rules';
import { EXAMPLE_QUOTE_REQUEST, EXAMPLE_QUOTE_RESPONSE } from './quote.examples';

describe('the OpenAPI worked example of the counter', () => {
  it('is a valid request whose answer is exactly the documented one', async () => {
    const dto = plainToInstance(CreateQuoteDto, EXAMPLE_QUOTE_REQUEST);
    await expect(validate(dto, { whitelist: true })).resolves.toEqual([]);
    const json = dto.plan as unknown as PlanJson;
    const { id, materials_source, ...priced } = EXAMPLE_QUOTE_RESPONSE;
    const answer = priceOrder({
      materials: planFromJson(json).materials!,
      order: dto.order,
      patientAge: dto.patient_age!,
      availability: availabilityOn(json.items, new Map(), dto.date_of_service!),
    });
    expect(answer).toEqual(priced);
    expect([id, materials_source]).toEqual([expect.any(String), null]);
  });
});
