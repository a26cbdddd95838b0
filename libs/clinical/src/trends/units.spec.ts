import { convertible, convertUnit, MOLECULAR_WEIGHTS, toUcum } from './units';

// Expected figures are UCUM's own definitions: [lb_av] = 7000 [gr] = 0.45359237 kg, [in_i] = 2.54 cm,
// mmHg = 133.322 Pa; mg/dL to mmol/L is value × 10 / molecular weight.
describe('unit conversion with UCUM', () => {
  it('converts mass-to-molar glucose with its molecular weight, and refuses without it', () => {
    expect(MOLECULAR_WEIGHTS.glucose).toBe(180.16);
    expect(convertUnit(100, 'mg/dL', 'mmol/L', { molecularWeight: 180.16 })).toBeCloseTo(5.55, 2);
    expect(convertUnit(5.55, 'mmol/L', 'mg/dL', { molecularWeight: 180.16 })).toBeCloseTo(100, 0);
    expect(convertUnit(7, 'mmol/L', 'mg/dL', { molecularWeight: MOLECULAR_WEIGHTS.glucose })).toBeCloseTo(126.1, 1);
    expect(convertUnit(100, 'mg/dL', 'mmol/L')).toBeNull();
  });

  it('converts weights, lengths and pressures', () => {
    expect(convertUnit(1, 'kg', '[lb_av]')).toBeCloseTo(2.20462, 5);
    expect(convertUnit(154, 'lbs', 'kg')).toBeCloseTo(69.853, 3); // a record's spelling
    expect(convertUnit(1, '[in_i]', 'cm')).toBeCloseTo(2.54, 10);
    expect(convertUnit(70, 'in', 'cm')).toBeCloseTo(177.8, 6);
    expect(convertUnit(120, 'mmHg', 'kPa')).toBeCloseTo(15.999, 3);
    expect(convertUnit(98.6, '°F', 'Cel')).toBeCloseTo(37, 6);
  });

  it('keeps units as written when they are UCUM already and refuses what does not convert', () => {
    expect(toUcum('mg/dL')).toBe('mg/dL');
    expect(toUcum('bpm')).toBe('/min');
    expect(toUcum('not a unit')).toBeNull();
    expect(convertUnit(5, 'kg', 'cm')).toBeNull();
    expect(convertUnit(5, 'kg', 'furlongs of cheese')).toBeNull();
    expect(convertUnit(5, 'kg', 'kg')).toBe(5);
    expect(convertible('g/dL', 'g/L')).toBe(true);
    expect(convertible('g/dL', '%')).toBe(false);
  });
});
