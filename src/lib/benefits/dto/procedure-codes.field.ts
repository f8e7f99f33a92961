import { StringListField } from '@/platform/http/validation/fields';

/** A CPT or HCPCS code (92014, V2100), optionally with modifiers (V2020-RT), or a bare modifier. */
const PROCEDURE_CODE = /^[A-Za-z0-9]{2,5}(?:-[A-Za-z0-9]{2}){0,4}$/;

/**
 * `codes` of a service line, the same rules for claims and estimates (docs/api.md, Claims and
 * Estimates): one to five CPT/HCPCS codes; only the description differs.
 */
export const ProcedureCodesField = (description: string) =>
  StringListField({
    required: true,
    minItems: 1,
    maxItems: 5,
    itemMaxLength: 20,
    itemPattern: PROCEDURE_CODE,
    itemPatternMessage: 'Enter a CPT or HCPCS code (for example 92014 or V2100).',
    example: ['92014'],
    description,
  });
