// Lints source texts as if they were the named files of this repository, with its own
// eslint.config.mjs; answers each one's rule ids. Input (stdin): [{ filePath, text }] as JSON.
// The rules of type information are left out (typescript-eslint's disableTypeChecked): they need
// a TypeScript program of the whole repository (seconds), and the rules probed here (boundaries,
// doors, owners, lease columns) read the syntax alone. `npm run lint` runs every rule on the files.
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';

const cases = JSON.parse(
  await new Promise((resolve) => {
    let data = '';
    process.stdin.on('data', (c) => (data += c));
    process.stdin.on('end', () => resolve(data));
  }),
);
const eslint = new ESLint({
  cwd: process.cwd(),
  overrideConfig: [tseslint.configs.disableTypeChecked],
});
const out = [];
for (const { filePath, text } of cases) {
  const [result] = await eslint.lintText(text, { filePath });
  out.push(
    result.messages.map(
      (m) => `${m.ruleId ?? 'parse'}:${m.line}${m.severity === 1 ? ' (warning)' : ''}`,
    ),
  );
}
process.stdout.write(JSON.stringify(out));
