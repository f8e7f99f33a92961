import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { NestExpressApplication } from '@nestjs/platform-express';
import nunjucks from 'nunjucks';
import { formatDecimal4 } from '@/platform/kernel/decimal';
import { formatMoney, MONEY } from '@/platform/kernel/money';
import { formatInstant } from '@/platform/kernel/time';

/**
 * The shell's `pages/<kind>` (`kind`: views or static files) first, then every other module's
 * `pages/<kind>` (docs/architecture.md, Modules: web): a feature's pages are found by their
 * place, so the shell imports no feature. A name in two folders would be served from the first
 * only: it is refused.
 */
export function pageDirs(kind: 'views' | 'static', modules = join(__dirname, '..')): string[] {
  const dirs = [
    ...readdirSync(modules)
      .sort((a, b) => Number(b === 'web') - Number(a === 'web') || a.localeCompare(b))
      .map((name) => join(modules, name, 'pages', kind))
      .filter((dir) => existsSync(dir)),
  ];
  const seen = new Map<string, string>();
  for (const dir of dirs)
    for (const name of readdirSync(dir)) {
      const first = seen.get(name);
      if (first) throw new Error(`${kind} name ${name} is in both ${first} and ${dir}.`);
      seen.set(name, dir);
    }
  return dirs;
}

/** Filters the pages' templates use that belong to other modules, given by the composition root. */
export type ViewFilters = Record<string, (value: string) => string>;

/** Nunjucks with autoescaping for the web application, and the static stylesheets. */
export function setupViews(
  app: NestExpressApplication,
  cache: boolean,
  filters: ViewFilters = {},
): void {
  const views = pageDirs('views');
  const env = nunjucks.configure(views, {
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
  for (const [name, filter] of Object.entries(filters)) env.addFilter(name, filter);
  app.setBaseViewsDir(views);
  app.setViewEngine('njk');
  for (const dir of pageDirs('static'))
    app.useStaticAssets(dir, {
      prefix: '/app/static/',
      maxAge: cache ? '1h' : 0,
      index: false,
    });
}
