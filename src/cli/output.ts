import { ValidationFailed } from '@/platform/kernel/errors';

export function print(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}

export function fail(message: string): never {
  process.stderr.write(`${JSON.stringify({ error: message })}\n`);
  process.exit(1);
}

export function describeError(e: unknown): string {
  if (e instanceof ValidationFailed) return JSON.stringify(e.errors);
  return e instanceof Error ? e.message : String(e);
}
