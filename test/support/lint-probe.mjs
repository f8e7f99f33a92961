// Lints source texts as if they were the named files of this repository, with its own
// eslint.config.mjs; answers each one's rule ids. Input (stdin): [{ filePath, text }] as JSON.
import { ESLint } from 'eslint';

const cases = JSON.parse(
  await new Promise((resolve) => {
    let data = '';
    process.stdin.on('data', (c) => (data += c));
    process.stdin.on('end', () => resolve(data));
  }),
);
const eslint = new ESLint({ cwd: process.cwd() });
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
