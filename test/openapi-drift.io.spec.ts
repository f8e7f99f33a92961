import { readFile } from 'node:fs/promises';
import { relative } from 'node:path';
import {
  CLIENT_TYPES_FILE,
  clientTypesText,
  DOCUMENT_FILE,
  documentText,
} from '../scripts/openapi';

/**
 * CI fails when the code, the checked-in document (openapi.json) and the client package's
 * generated types (clients/typescript/src/schema.d.ts) disagree: both are regenerated here, in
 * memory, from the code, and compared with the files.
 */
const FIX = 'run `npm run openapi` and commit openapi.json and clients/typescript/src/schema.d.ts';

/** The first line where two texts differ, for the failure message. */
function firstDifference(expected: string, actual: string): string {
  const want = expected.split('\n');
  const have = actual.split('\n');
  const line = want.findIndex((text, i) => text !== have[i]);
  const at = line === -1 ? want.length : line;
  return `line ${at + 1}: the code gives ${JSON.stringify(want[at] ?? '<end>')}, the file has ${JSON.stringify(have[at] ?? '<end>')}`;
}

function expectSame(file: string, generated: string, onFile: string): void {
  if (generated === onFile) return;
  throw new Error(
    `${relative(process.cwd(), file)} is out of date with the code: ${FIX}.\n` +
      firstDifference(generated, onFile),
  );
}

describe('the checked-in OpenAPI document and client types', () => {
  let document: string;

  beforeAll(async () => {
    document = await documentText();
  });

  it('openapi.json is the document the code builds', async () => {
    expectSame(DOCUMENT_FILE, document, await readFile(DOCUMENT_FILE, 'utf8'));
  });

  it("the client package's types are the ones generated from it", async () => {
    expectSame(
      CLIENT_TYPES_FILE,
      await clientTypesText(document),
      await readFile(CLIENT_TYPES_FILE, 'utf8'),
    );
  });

  it('fails with a message that says what to run', () => {
    expect(() => expectSame(DOCUMENT_FILE, '{\n  "a": 1\n}\n', '{\n  "a": 2\n}\n')).toThrow(
      /openapi\.json is out of date with the code: run `npm run openapi`.*\nline 2: the code gives " {2}\\"a\\": 1", the file has " {2}\\"a\\": 2"/,
    );
  });
});
