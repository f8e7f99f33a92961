// Builds dist/cjs (CommonJS) and dist/esm (ES modules) with tsc, each with its declarations.
// The generated API types (src/schema.d.ts, most of the package's size) are shipped once, as
// dist/schema.d.ts, which both builds re-export.
'use strict';
const { execFileSync } = require('node:child_process');
const { copyFileSync, rmSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');

const root = join(__dirname, '..');
const dist = join(root, 'dist');
const tsc = require.resolve('typescript/bin/tsc', { paths: [root] });

rmSync(dist, { recursive: true, force: true });
for (const config of ['tsconfig.cjs.json', 'tsconfig.esm.json'])
  execFileSync(process.execPath, [tsc, '-p', join(root, config)], { cwd: root, stdio: 'inherit' });
copyFileSync(join(root, 'src', 'schema.d.ts'), join(dist, 'schema.d.ts'));
for (const [dir, type] of [
  ['cjs', 'commonjs'],
  ['esm', 'module'],
]) {
  writeFileSync(join(dist, dir, 'package.json'), `${JSON.stringify({ type })}\n`);
  writeFileSync(join(dist, dir, 'schema.d.ts'), "export * from '../schema.js';\n");
}
