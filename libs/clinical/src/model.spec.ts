import { SECTION_KEYS, SECTION_TITLES } from './model';

describe('clinical model', () => {
  it('lists the five sections in the order the summary page shows them, with the spec titles', () => {
    expect(SECTION_KEYS.map((key) => SECTION_TITLES[key])).toEqual([
      'Current Medical Conditions',
      'Past Medical History',
      'Medications',
      'Allergies',
      'Additional Categories',
    ]);
  });
});
