import { readInterchange } from './x12.envelope';
import { x12Refusal } from '../../../test/x12/refusal';
import { prettyX12 } from './x12.pretty';
import { tokenize } from './x12.tokenizer';

// A small 271 envelope written by hand: 9 segments from ST to SE.
const ISA =
  'ISA*00*          *00*          *ZZ*CLEARINGHOUSE  *ZZ*VISIONELIG     *260315*1230*^*00501*000000101*0*T*:~';
const BODY = [
  'GS*HB*CLEARINGHOUSE*VISIONELIG*20260315*1230*101*X*005010X279A1~',
  'ST*271*0001*005010X279A1~',
  'BHT*0022*11*TRACE0001*20260315*1230~',
  'HL*1**20*1~',
  'NM1*PR*2*DAVIS VISION*****PI*QKZWY~',
  'HL*2*1*21*0~',
  'NM1*1P*2*BRIGHT EYES*****XX*1234567893~',
  'EQ*30^AL~',
  'SE*8*0001~',
  'GE*1*101~',
  'IEA*1*000000101~',
];
const TEXT = ISA + BODY.join('');

/** The same interchange with other separators (character for character). */
function withSeparators(text: string, map: Record<string, string>): string {
  return [...text].map((c) => map[c] ?? c).join('');
}

const parseError = (text: string) => x12Refusal(readInterchange, text);

describe('X12 tokenizer and envelopes', () => {
  it('reads the separators the ISA declares and the envelope headers', () => {
    const interchange = readInterchange(TEXT);
    expect(interchange.separators).toEqual({
      element: '*',
      component: ':',
      repetition: '^',
      segment: '~',
    });
    expect(interchange.isa).toMatchObject({
      senderId: 'CLEARINGHOUSE',
      receiverId: 'VISIONELIG',
      controlNumber: '000000101',
      usage: 'T',
      version: '00501',
    });
    const [group] = interchange.groups;
    expect(group).toMatchObject({
      functionalId: 'HB',
      controlNumber: '101',
      version: '005010X279A1',
    });
    const [set] = group.transactions;
    expect(set).toMatchObject({
      type: '271',
      controlNumber: '0001',
      implementationReference: '005010X279A1',
    });
    expect(set.segments.map((s) => s.id)).toEqual(['BHT', 'HL', 'NM1', 'HL', 'NM1', 'EQ']);
    expect(set.segments[5].repeats(1)).toEqual(['30', 'AL']);
    expect(set.segments[2].el(9)).toBe('QKZWY');
    expect(set.segments[2].el(12)).toBe('');
  });

  it.each([
    ['pipes, carets and tildes', { '*': '|', '^': '^', ':': '>', '~': '~' }],
    [
      'an exclamation element separator and a newline terminator',
      { '*': '!', '^': '{', ':': '\\', '~': '\n' },
    ],
    ['a caret element separator', { '*': '^', '^': '}', ':': '`', '~': "'" }],
  ])('reads %s', (_name, map) => {
    const interchange = readInterchange(withSeparators(TEXT, map));
    expect(interchange.separators).toEqual({
      element: map['*'],
      component: map[':'],
      repetition: map['^'],
      segment: map['~'],
    });
    const segments = interchange.groups[0].transactions[0].segments;
    expect(segments[2].el(3)).toBe('DAVIS VISION');
    expect(segments[5].repeats(1)).toEqual(['30', 'AL']);
  });

  it('reads past line breaks after segment terminators (LF and CRLF) and a leading BOM', () => {
    for (const newline of ['\n', '\r\n']) {
      const text = '\uFEFF' + [ISA, ...BODY].join(newline) + newline;
      const interchange = readInterchange(text);
      expect(interchange.groups[0].transactions[0].segments).toHaveLength(6);
    }
  });

  it('reads CRLF when the line feed is itself the segment terminator', () => {
    const text = withSeparators(TEXT, { '~': '\n' }).replaceAll('\n', '\r\n');
    const segments = readInterchange(text).groups[0].transactions[0].segments;
    expect(segments[5].repeats(1)).toEqual(['30', 'AL']);
    expect(segments[2].elements.at(-1)).toBe('QKZWY');
  });

  it('numbers segments from ISA for messages', () => {
    const { segments } = tokenize(TEXT);
    expect(segments[3].label).toBe('segment 4 (BHT)');
  });

  describe('refuses malformed interchanges with a precise message', () => {
    it('a truncated ISA header', () => {
      expect(parseError(ISA.slice(0, 60))).toMatch(
        /^X12: truncated ISA header: it ends inside ISA08 \(60 characters, an ISA header has 106\)$/,
      );
      expect(parseError(ISA.slice(0, 104))).toBe(
        'X12: truncated ISA header: 104 characters, an ISA header has 106',
      );
    });

    // Each case: the text, then the message it is refused with.
    it.each<{ title: string; cases: [text: string, message: string][] }>([
      {
        title: 'text that is not X12',
        cases: [
          [
            '{"x12": null}',
            'X12: an interchange starts with ISA, this text starts with "{\\"x12\\": nu"',
          ],
          ['   ', 'X12: the interchange is empty'],
        ],
      },
      {
        title: 'an ISA field of the wrong width',
        cases: [
          [
            ISA.replace('CLEARINGHOUSE  ', 'CLEARINGHOUSE') + BODY.join(''),
            'X12: bad ISA length: ISA06 is 13 characters, the fixed-width ISA header needs 15',
          ],
        ],
      },
      {
        title: 'a file cut in the middle of a segment',
        cases: [
          [
            TEXT.slice(0, TEXT.indexOf('NM1*1P') + 12),
            'X12: truncated interchange: the text ends inside segment 8 "NM1*1P*2*BRI", which has no segment terminator "~" (the last complete segment is segment 7 (HL))',
          ],
        ],
      },
      {
        title: 'a file cut after a whole segment',
        cases: [
          [
            ISA + BODY.slice(0, 6).join(''),
            'X12: truncated interchange: the transaction set of segment 3 (ST) (ST02 0001) has no SE segment',
          ],
          [
            ISA + BODY.slice(0, 9).join(''),
            'X12: truncated interchange: the functional group of segment 2 (GS) (GS06 101) has no GE segment',
          ],
          [
            ISA + BODY.slice(0, 10).join(''),
            'X12: truncated interchange: no IEA segment (the text ends after segment 11 (GE))',
          ],
        ],
      },
      {
        title: 'a wrong segment count in SE01',
        cases: [
          [
            TEXT.replace('SE*8*0001', 'SE*9*0001'),
            'X12 segment 10 (SE): wrong count: SE01 says 9 segments from ST to SE, there are 8',
          ],
          [
            TEXT.replace('SE*8*0001', 'SE*eight*0001'),
            'X12 segment 10 (SE): SE01 "eight" is not a count',
          ],
        ],
      },
      {
        title: 'wrong group and transaction-set counts',
        cases: [
          [
            TEXT.replace('GE*1*101', 'GE*2*101'),
            'X12 segment 11 (GE): wrong count: GE01 says 2 transaction sets, there are 1',
          ],
          [
            TEXT.replace('IEA*1*', 'IEA*3*'),
            'X12 segment 12 (IEA): wrong count: IEA01 says 3 functional groups, there are 1',
          ],
        ],
      },
      {
        title: 'mismatched control numbers',
        cases: [
          [
            TEXT.replace('SE*8*0001', 'SE*8*0002'),
            'X12 segment 10 (SE): mismatched control numbers: SE02 is "0002", ST02 is "0001"',
          ],
          [
            TEXT.replace('GE*1*101', 'GE*1*102'),
            'X12 segment 11 (GE): mismatched control numbers: GE02 is "102", GS06 is "101"',
          ],
          [
            TEXT.replace('IEA*1*000000101', 'IEA*1*000000909'),
            'X12 segment 12 (IEA): mismatched control numbers: IEA02 is "000000909", ISA13 is "000000101"',
          ],
        ],
      },
      {
        title: 'segments out of their envelope',
        cases: [
          [
            TEXT.replace('SE*8*0001~', ''),
            'X12 segment 10 (GE): GE inside transaction set 0001 of segment 3 (ST), which has no SE yet',
          ],
          [
            TEXT + 'ST*271*0002~',
            'X12 segment 13 (ST): a segment after IEA, the end of the interchange',
          ],
          [
            TEXT.replace('GE*1*101~', 'BHT*1~GE*1*101~'),
            'X12 segment 11 (BHT): expected ST (a transaction set) or GE (the end of the group)',
          ],
        ],
      },
      {
        title: 'an empty segment and a segment without an id',
        cases: [
          [
            TEXT.replace('HL*1**20*1~', 'HL*1**20*1~~'),
            'X12: segment 6 is empty (two segment terminators "~" in a row)',
          ],
          [
            TEXT.replace('HL*1**20*1~', 'hl*1**20*1~'),
            'X12: segment 5 has no valid segment id: it starts "hl*1**20*1"',
          ],
        ],
      },
    ])('$title', ({ cases }) => {
      expect(cases.map(([text]) => parseError(text))).toEqual(cases.map(([, message]) => message));
    });

    it('separators that clash', () => {
      const clash = withSeparators(TEXT, { ':': '^' });
      expect(parseError(clash)).toMatch(/declares unusable separators/);
    });
  });
});

describe('prettyX12', () => {
  it('prints one segment a line with its terminator, and leaves non-X12 text alone', () => {
    const lines = prettyX12(TEXT).split('\n');
    expect(lines).toHaveLength(12);
    expect(lines[0]).toBe(ISA);
    expect(lines[5]).toBe('NM1*PR*2*DAVIS VISION*****PI*QKZWY~');
    expect(prettyX12('<html>502 Bad Gateway</html>')).toBe('<html>502 Bad Gateway</html>');
    expect(prettyX12(TEXT.slice(0, 200))).toBe(TEXT.slice(0, 200));
  });
});
