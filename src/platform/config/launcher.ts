import type { Env } from './env-parts';

/** How this process was started, as far as its stop is concerned. */
export interface LauncherSettings {
  /**
   * Run by an npm script (`npm start`; npm sets `npm_lifecycle_event` for it): the service stops
   * when the shell npm runs it under goes (src/parent-watch.ts).
   */
  stopsWithParent: boolean;
}

export function loadLauncherSettings(env: Env): LauncherSettings {
  return { stopsWithParent: Boolean(env.npm_lifecycle_event?.trim()) };
}
