import {
  benefitCodeForProcedure,
  benefitCodeForServiceType,
  isPlanLevelServiceType,
  serviceCodeForBenefit,
} from './service-codes';

describe('service codes → benefit codes', () => {
  it('maps the vision service types of docs/api.md, Real insurers', () => {
    expect(['AN', 'AM', 'AO', 'CP', 'an'].map(benefitCodeForServiceType)).toEqual([
      'exam.routine',
      'materials.frames',
      'materials.spectacle_lenses',
      'materials',
      'exam.routine',
    ]);
    expect(['AL', '30', 'BR', '98'].map(benefitCodeForServiceType)).toEqual([
      null,
      null,
      null,
      null,
    ]);
    expect(['AL', '30', 'AN'].map(isPlanLevelServiceType)).toEqual([true, true, false]);
  });

  it('maps procedure codes, the narrow ranges before the wide ones', () => {
    const codes = ['92004', '92014', '92015', '92310', '92317', 'V2020', 'V2025', 'V2100', 'V2299'];
    expect(codes.map(benefitCodeForProcedure)).toEqual([
      'exam.routine',
      'exam.routine',
      null,
      'exam.contact_lens_fitting',
      'exam.contact_lens_fitting',
      'materials.frames',
      'materials.frames',
      'materials.spectacle_lenses.single_vision',
      'materials.spectacle_lenses.bifocal',
    ]);
    const more = ['V2300', 'V2781', 'V2410', 'V2750', 'V2520', 'V2600', 'v2100', 'X2100', '9201'];
    expect(more.map(benefitCodeForProcedure)).toEqual([
      'materials.spectacle_lenses.trifocal',
      'materials.spectacle_lenses.progressive',
      'materials.spectacle_lenses',
      'materials.spectacle_lenses.options.anti_reflective',
      'materials.contact_lenses',
      null,
      'materials.spectacle_lenses.single_vision',
      null,
      null,
    ]);
  });

  it('names a benefit by service type, or by the procedure code that names it, and back', () => {
    const benefits = [
      'exam',
      'exam.routine',
      'exam.contact_lens_fitting',
      'materials.frames',
      'materials.spectacle_lenses.bifocal',
      'materials.spectacle_lenses.progressive',
      'materials.spectacle_lenses.options.anti_reflective',
      'materials.spectacle_lenses.options.tint',
      'materials.contact_lenses',
      'materials',
    ];
    expect(benefits.map(serviceCodeForBenefit)).toEqual([
      { kind: 'service_type', code: 'AN' },
      { kind: 'service_type', code: 'AN' },
      { kind: 'procedure', system: 'cpt', code: '92310' },
      { kind: 'service_type', code: 'AM' },
      { kind: 'service_type', code: 'AO' },
      { kind: 'procedure', system: 'hcpcs', code: 'V2781' },
      { kind: 'procedure', system: 'hcpcs', code: 'V2750' },
      { kind: 'service_type', code: 'AO' },
      { kind: 'service_type', code: 'F6' },
      { kind: 'service_type', code: 'F6' },
    ]);
    // A procedure code it hands out names the same benefit again.
    for (const benefit of benefits) {
      const code = serviceCodeForBenefit(benefit);
      if (code.kind === 'procedure') expect(benefitCodeForProcedure(code.code)).toBe(benefit);
    }
  });
});
