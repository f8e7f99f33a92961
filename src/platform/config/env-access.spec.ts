import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

const SRC = join(__dirname, '..', '..');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : path.endsWith('.ts') ? [path] : [];
  });
}

describe('configuration access', () => {
  it('reads process.env only in src/platform/config (everything else gets the injected AppConfig)', () => {
    const readers = files(SRC)
      .filter((f) => !relative(SRC, f).startsWith('platform/config'))
      // Specs are not the service: a test may read a tool's location (PYX12_DIR) from the shell.
      .filter((f) => !f.endsWith('.spec.ts'))
      .filter((f) => /process\.env\b/.test(readFileSync(f, 'utf8')))
      .map((f) => relative(SRC, f));
    expect(readers).toEqual([]);
  });
});
