import { quantity } from './ips';
import { UCUM_SYSTEM, ucumCode } from './ucum';

describe('ucumCode', () => {
  it('maps what records print to UCUM, checked by NLM’s UCUM library', () => {
    expect(
      [
        'bpm',
        'mmHg',
        'mm Hg',
        '°F',
        '°C',
        'lb',
        'lbs',
        'in',
        'K/uL',
        'mIU/L',
        'mcg/dL',
        'mL/min/1.73m2',
        'breaths/min',
      ].map(ucumCode),
    ).toEqual([
      '/min',
      'mm[Hg]',
      'mm[Hg]',
      '[degF]',
      'Cel',
      '[lb_av]',
      '[lb_av]',
      '[in_i]',
      '10*3/uL',
      'm[IU]/L',
      'ug/dL',
      'mL/min/{1.73_m2}',
      '/min',
    ]);
  });

  it('keeps units that are UCUM as written', () => {
    for (const unit of ['kg/m2', '%', 'mg/dL', 'mmol/L', 'cm', 'kg', 'Cel', '/min', 'U/L', 'g/dL', '10*3/uL'])
      expect(ucumCode(unit)).toBe(unit);
  });

  it('gives null for what is not UCUM (or only by the library’s rewriting)', () => {
    for (const unit of ['stone', 'cells', 'x', '', null, undefined, '1.73m2']) expect(ucumCode(unit)).toBeNull();
  });
});

describe('quantity', () => {
  it('has system and code with a UCUM unit, the unit text only otherwise, and a comparator', () => {
    expect(quantity('84', 'bpm')).toEqual({ value: 84, unit: 'bpm', system: UCUM_SYSTEM, code: '/min' });
    expect(quantity('12', 'stone')).toEqual({ value: 12, unit: 'stone' });
    expect(quantity('<0.5', 'mg/dL')).toEqual({
      value: 0.5,
      comparator: '<',
      unit: 'mg/dL',
      system: UCUM_SYSTEM,
      code: 'mg/dL',
    });
    expect(quantity('7', null)).toEqual({ value: 7 });
    expect(quantity('positive', 'mg')).toBeNull();
  });
});
