import { spawn } from 'node:child_process';
import { join } from 'node:path';

/**
 * Runs the admin CLI (src/cli.ts through ts-node) as an operator would, with this test worker's
 * environment; `stdin` is written to its standard input (passwords are read from there, never argv).
 */
export function runCli(
  args: string[],
  stdin = '',
  env: Record<string, string> = {},
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    const child = spawn(
      process.execPath,
      [
        require.resolve('ts-node/dist/bin'),
        '-r',
        'tsconfig-paths/register',
        '--transpile-only',
        'src/cli.ts',
        ...args,
      ],
      {
        cwd: join(__dirname, '..', '..'),
        env: { ...process.env, ...env, TS_NODE_PROJECT: 'tsconfig.json' },
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('close', (code) => resolve({ code, stdout, stderr }));
    child.stdin.end(stdin);
  });
}
