import { applyDecorators } from '@nestjs/common';
import { MSG } from '../../kernel/messages';
import { todayIso } from '../../kernel/time';
import { api, FieldOpts, presenceDecorators, rule, typeRule } from './base';
import { presentThen, REFUSE, withFastCheck } from './fast-path';

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A real calendar date in YYYY-MM-DD form (2023-02-30 is refused). */
export function isIsoDate(value: unknown): value is string {
  if (typeof value !== 'string') return false;
  const m = DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return (
    date.getUTCFullYear() === y &&
    date.getUTCMonth() === mo - 1 &&
    date.getUTCDate() === d &&
    y >= 1
  );
}

export interface DateOpts extends FieldOpts {
  notFuture?: boolean;
  min?: string;
}

export function DateField(opts: DateOpts = {}): PropertyDecorator {
  const decorators: PropertyDecorator[] = [
    ...presenceDecorators(opts),
    typeRule(isIsoDate, MSG.date),
  ];
  if (opts.notFuture) {
    decorators.push(
      rule('notFuture', (v) => isIsoDate(v) && v <= todayIso(), 'Date may not be in the future.'),
    );
  }
  if (opts.min) {
    const min = opts.min;
    decorators.push(
      rule('minDate', (v) => isIsoDate(v) && v >= min, `Date may not be before ${min}.`),
    );
  }
  decorators.push(api(opts, { type: String, format: 'date' }));
  // The fast path's check (fast-path.ts): the same rules.
  const fast = presentThen(opts, (value) =>
    isIsoDate(value) &&
    (!opts.notFuture || value <= todayIso()) &&
    (opts.min === undefined || value >= opts.min)
      ? value
      : REFUSE,
  );
  return applyDecorators(...withFastCheck(decorators, fast));
}
