import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import nunjucks from 'nunjucks';
import { formatDecimal4 } from '@/common/decimal';
import { formatMoney, MONEY } from '@/common/money';
import { formatInstant } from '@/common/time';
import { insurerName } from '@/modules/insurers';
import { label as benefitLabel } from './benefit-table';

export const VIEWS_DIR = join(__dirname, 'views');
export const STATIC_DIR = join(__dirname, 'static');

/** Nunjucks with autoescaping for the web application, and the static stylesheet. */
export function setupViews(app: NestExpressApplication, cache: boolean): void {
  const env = nunjucks.configure(VIEWS_DIR, {
    autoescape: true,
    noCache: !cache,
    express: app.getHttpAdapter().getInstance(),
  });
  env.addFilter('datetime', (value: Date | string | null | undefined) => {
    if (!value) return '';
    const d = value instanceof Date ? value : new Date(value);
    return Number.isNaN(d.getTime()) ? '' : formatInstant(d, 'page');
  });
  // Plan doubles arrive as decimal strings ("150.0000"): shown as dollars without float maths.
  env.addFilter('money', (value: string | number) => formatMoney(String(value), MONEY.page));
  env.addFilter('percent', (value: string | number) => {
    const fixed = formatDecimal4(String(value));
    return fixed === null ? '' : `${fixed.replace(/\.?0+$/, '')}%`;
  });
  // Pages name insurers as people know them; an unknown code is shown as it is.
  env.addFilter('insurerName', (code: string) => insurerName(code));
  // Benefits likewise, by the words of the benefit table; the code stays in a title attribute.
  env.addFilter('benefitName', (code: string) => benefitLabel(code));
  app.setBaseViewsDir(VIEWS_DIR);
  app.setViewEngine('njk');
  app.useStaticAssets(STATIC_DIR, {
    prefix: '/app/static/',
    maxAge: cache ? '1h' : 0,
    index: false,
  });
}
