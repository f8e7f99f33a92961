import { type ErrorTree, ValidationFailed } from '@/platform/kernel/errors';
import { addRequestErrors } from '@/platform/http/validation/request-rules';
import { createValidationPipe } from '@/platform/http/validation/validation-errors';
import { CreateBatchDto, MAX_BATCH_ITEMS } from '../../api/dto/create-batch.dto';
import { CreateEligibilityDto } from '../../api/dto/create-eligibility.dto';

/** The API's own pipe (as registered globally): the same rules and messages as every route. */
const pipe = createValidationPipe();

/** Items validated per turn of the event loop (a few tens of milliseconds each). */
const CHUNK = 250;

/**
 * Validates a batch body with CreateBatchDto, as the global pipe would, but a slice of items at a
 * time, yielding to the event loop between slices: 10,000 items take class-validator a second or
 * more, which would otherwise stall every other request of the process (single checks included).
 * Errors are keyed by the item's index in the whole batch, all of them reported together.
 */
export async function validateBatchBody(body: unknown): Promise<CreateBatchDto> {
  const items = (body as { items?: unknown } | null)?.items;
  if (!Array.isArray(items) || items.length === 0 || items.length > MAX_BATCH_ITEMS) {
    // Not a list of a valid size: the list-level answer alone (items are not looked at).
    return transform(body);
  }
  const errors: ErrorTree = {};
  const itemErrors: ErrorTree = {};
  const valid: CreateBatchDto['items'] = [];
  let batchUid: string | null | undefined;
  for (let offset = 0; offset < items.length; offset += CHUNK) {
    const slice = items.slice(offset, offset + CHUNK);
    // The first slice carries the batch's own fields.
    const part = offset === 0 ? { ...(body as object), items: slice } : { items: slice };
    try {
      const dto = await transform(part);
      valid.push(...dto.items);
      if (offset === 0) batchUid = dto.batch_uid;
    } catch (e) {
      if (!(e instanceof ValidationFailed)) throw e;
      const { items: sliceErrors, ...rest } = e.errors;
      Object.assign(errors, rest);
      for (const [index, tree] of Object.entries((sliceErrors as ErrorTree | undefined) ?? {})) {
        itemErrors[String(offset + Number(index))] = tree;
      }
    }
    await new Promise((resolve) => setImmediate(resolve));
  }
  if (Object.keys(itemErrors).length > 0 || Object.keys(errors).length > 0) {
    // Refused: each item's whole-request errors (an unknown insurer) come with the field errors,
    // those of items that passed too, so one answer lists everything to fix (docs/api.md, Errors).
    items.forEach((item, index) => {
      const tree = (itemErrors[String(index)] as ErrorTree | undefined) ?? {};
      addRequestErrors(CreateEligibilityDto, item, tree);
      if (Object.keys(tree).length > 0) itemErrors[String(index)] = tree;
    });
  }
  if (Object.keys(itemErrors).length > 0) errors.items = itemErrors;
  if (Object.keys(errors).length > 0) throw new ValidationFailed(errors);
  const dto = new CreateBatchDto();
  dto.items = valid;
  dto.batch_uid = batchUid;
  return dto;
}

async function transform(body: unknown): Promise<CreateBatchDto> {
  return (await pipe.transform(body, { type: 'body', metatype: CreateBatchDto })) as CreateBatchDto;
}
