import { PassThrough, Readable } from 'node:stream';
import { type CsvLimits, CsvRefused, NO_FILE, readCsv } from './csv-intake';

const LIMITS: CsvLimits = {
  maxRows: 3,
  rowsAre: 'patients',
  maxRecordBytes: 40,
  maxColumns: 5,
  maxBytes: 4 * 60,
};

const refusalOf = async (source: string | Readable, limits = LIMITS) => {
  const e: unknown = await readCsv(source, limits).then(
    () => null,
    (err: unknown) => err,
  );
  expect(e).toBeInstanceOf(CsvRefused);
  return (e as CsvRefused).message;
};

describe('readCsv, the one CSV intake', () => {
  it('reads a BOM, blank lines, and quoted cells holding commas, quotes and newlines', async () => {
    const csv = '\uFEFFa,b,c\r\n\r\n"x, y","say ""hi""","two\nlines"\r\nshort\r\n';
    expect(await readCsv(csv, LIMITS)).toEqual({
      header: ['a', 'b', 'c'],
      rows: [
        { cells: ['x, y', 'say "hi"', 'two\nlines'], line: 4 },
        { cells: ['short'], line: 5 },
      ],
    });
  });

  it('reads as many rows as the cap and refuses one more, naming its line', async () => {
    const rows = (n: number) => ['h', ...Array.from({ length: n }, (_, i) => `r${i}`)].join('\n');
    expect((await readCsv(rows(3), LIMITS)).rows).toHaveLength(3);
    expect(await refusalOf(rows(4))).toBe(
      'Line 5: At most 3 patients per file; this one has more.',
    );
  });

  it('refuses a line longer than the record cap, naming its line', async () => {
    expect(await refusalOf(`a,b\nx,y\n${'z'.repeat(41)},w\n`)).toBe(
      'Line 3: the line is longer than 40 bytes, the most a line may be.',
    );
    expect((await readCsv(`a,b\n${'z'.repeat(39)},w\n`, LIMITS)).rows).toHaveLength(1);
  });

  it('refuses a row wider than its header, even a single row of commas', async () => {
    expect(await refusalOf('a,b\nx,y,z\n')).toBe(
      "Line 2: the line has more cells than the header's 2 columns.",
    );
    const wide = { ...LIMITS, maxBytes: 10_000_000, maxRecordBytes: 10_000_000 };
    expect(await refusalOf(`a,b\n${','.repeat(5_000_000)}\n`, wide)).toBe(
      "Line 2: the line has more cells than the header's 2 columns.",
    );
  });

  it('refuses a header wider than the column maximum, and a one-line file of commas', async () => {
    expect(await refusalOf('a,b,c,d,e,f\n')).toBe('Line 1: the header has more than 5 columns.');
    expect((await readCsv('a,b,c,d,e\n', LIMITS)).header).toHaveLength(5);
    const wide = { ...LIMITS, maxBytes: 10_000_000 };
    expect(await refusalOf(','.repeat(5_000_000), wide)).toBe(
      'Line 1: the header has more than 5 columns.',
    );
  });

  it('refuses a file over its byte limit as it streams in, and leaves the rest flowing', async () => {
    const upload = new PassThrough();
    const read = refusalOf(upload, { ...LIMITS, maxRows: 1_000_000, maxBytes: 1024 * 1024 });
    upload.write('a,b\n' + 'x,y\n'.repeat(300_000));
    expect(await read).toBe('The file is larger than 1 MiB.');
    // The rest is dropped as it comes: a refused upload still ends.
    const ended = new Promise((r) => upload.on('end', r));
    upload.end('x,y\n'.repeat(1000));
    await ended;
  });

  it('counts bytes, not characters, in text as in an upload', async () => {
    const limits = { ...LIMITS, maxRecordBytes: 1_000, maxBytes: 100 };
    expect((await readCsv(`a\n${'x'.repeat(90)}`, limits)).rows).toHaveLength(1);
    expect(await refusalOf(`a\n${'é'.repeat(50)}`, limits)).toBe(
      'The file is larger than 100 bytes.',
    );
  });

  it('refuses what the upload itself failed with', async () => {
    const upload = new PassThrough();
    const read = refusalOf(upload);
    upload.write('a,b\n');
    upload.destroy(new CsvRefused('The upload was not understood; send one CSV file.'));
    expect(await read).toBe('The upload was not understood; send one CSV file.');
  });

  it.each([
    ['', NO_FILE],
    ['\n\n', 'The file is empty.'],
    ['a,"b\n', 'Not a readable CSV file'],
    ['a,"b"c\n', 'Not a readable CSV file'],
  ])('refuses %j', async (csv, message) => {
    expect(await refusalOf(csv)).toContain(message);
  });
});
