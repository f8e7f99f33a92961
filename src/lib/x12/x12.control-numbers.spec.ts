import { controlNumbers } from './x12.control-numbers';

const INTERCHANGE = [
  'ISA*00*          *00*          *ZZ*CLEARINGHOUSE  *ZZ*VISIONELIG     *260315*1230*^*00501*000000101*0*T*:~',
  'GS*HB*CLEARINGHOUSE*VISIONELIG*20260315*1230*101*X*005010X279A1~',
  'ST*271*0001*005010X279A1~',
  'BHT*0022*11*REF-77*20260315*1230~',
  'SE*3*0001~',
  'GE*1*101~',
  'IEA*1*000000101~',
].join('\n');

describe('controlNumbers (how an eligibility snapshot names an exchange)', () => {
  it('reads ISA13, GS06, ST02 and BHT03', () => {
    expect(controlNumbers(INTERCHANGE)).toEqual({
      interchange: '000000101',
      group: '101',
      transaction: '0001',
      reference: 'REF-77',
    });
  });

  it('reads an interchange whose envelope counts are off (a payer slip), and one without BHT', () => {
    const slipped = INTERCHANGE.replace('SE*3*0001~', 'SE*9*0002~').replace(
      'BHT*0022*11*REF-77*20260315*1230~\n',
      '',
    );
    expect(controlNumbers(slipped)).toEqual({
      interchange: '000000101',
      group: '101',
      transaction: '0001',
      reference: null,
    });
  });

  it.each([
    ['the sandbox question (JSON)', '{"insurer_code":"insurer:demo:vision"}'],
    ['an error page', '<html>502 Bad Gateway</html>'],
    ['a broken ISA', 'ISA*00*oops~'],
    ['nothing', null],
  ])('gives null for %s', (_what, text) => {
    expect(controlNumbers(text)).toBeNull();
  });
});
