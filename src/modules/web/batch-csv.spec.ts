import { CsvRefused, lineErrors, neutralise, parseUpload, templateCsv } from './batch-csv';

describe('batch CSV', () => {
  it('reads the template back as one item', () => {
    const { body, lines } = parseUpload(templateCsv());
    expect(body.items).toEqual([
      {
        insurer_code: 'insurer:demo:vision',
        patient: {
          first_name: 'Maria',
          last_name: 'Garcia',
          dob: '1984-06-15',
          zipcode: '78701',
          member_id: 'VSP123456789',
        },
      },
    ]);
    expect(lines).toEqual([2]);
  });

  it('accepts headers as people write them, a BOM, blank lines and quoted cells', () => {
    const csv =
      '\uFEFFFirst Name,Last Name,Date of birth,Zip code,Member ID,Insurer\r\n\r\n' +
      '"Ann, Jr",Lee,1990-01-01,78701,,insurer:demo:vision\r\n';
    const { body, lines } = parseUpload(csv);
    expect(body.items[0]).toEqual({
      insurer_code: 'insurer:demo:vision',
      patient: {
        first_name: 'Ann, Jr',
        last_name: 'Lee',
        dob: '1990-01-01',
        zipcode: '78701',
        member_id: undefined,
      },
    });
    expect(lines).toEqual([3]);
  });

  it.each([
    ['', 'The file is empty.'],
    ['first_name,last_name\nA,B', 'Line 1: the header lacks dob, zipcode, insurer_code'],
    ['first_name,last_name,dob,zipcode,insurer_code\n', 'The file has a header but no patients.'],
    ['a,"b\n', 'Not a readable CSV file'],
  ])('refuses %j', (csv, message) => {
    expect(() => parseUpload(csv)).toThrow(CsvRefused);
    expect(() => parseUpload(csv)).toThrow(message);
  });

  it("names the file line of each item's errors", () => {
    const errors = {
      items: {
        '0': { patient: { dob: { $: ['Date has wrong format. Use YYYY-MM-DD.'] } } },
        '2': { $: ['Unknown insurer code: x.'] },
      },
    };
    expect(lineErrors(errors, [2, 4, 7])).toEqual([
      'Line 2: dob: Date has wrong format. Use YYYY-MM-DD.',
      'Line 7: Unknown insurer code: x.',
    ]);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    ['\t=1', "'\t=1"],
    ['Maria', 'Maria'],
    [null, ''],
  ])('neutralises %j for spreadsheets', (cell, out) => {
    expect(neutralise(cell)).toBe(out);
  });
});
