import { isValidNpi, luhnValid, namesMatch, nameTokens } from './npi';

describe('NPI check digit (Luhn with the 80840 prefix)', () => {
  it.each(['1234567893', '1245319599', '1003000126'])('accepts %s', (npi) => expect(isValidNpi(npi)).toBe(true));

  it('refuses every single-digit typo of a valid NPI', () => {
    const valid = '1234567893';
    for (let position = 0; position < 10; position++) {
      for (let digit = 0; digit <= 9; digit++) {
        const typo = valid.slice(0, position) + String(digit) + valid.slice(position + 1);
        if (typo !== valid) expect(isValidNpi(typo)).toBe(false);
      }
    }
  });

  it('refuses the wrong length and non-digits', () => {
    for (const bad of ['', '123456789', '12345678930', '123456789a', '12345 7893', '１２３４５６７８９３']) expect(isValidNpi(bad)).toBe(false);
  });

  it('is Luhn over the prefixed number (not plain Luhn of the 10 digits)', () => {
    expect(luhnValid('1234567893')).toBe(false);
    expect(luhnValid('808401234567893')).toBe(true);
  });
});

describe('name matching', () => {
  const ana = { first: 'ANA', middle: 'MARIA', last: 'RUIZ' };

  it('splits names into plain lower-case words', () => {
    expect(nameTokens('  José-María  Núñez ')).toEqual(['jose', 'maria', 'nunez']);
  });

  it.each([
    ['Ana Ruiz', ''],
    ['ana ruiz', ''],
    ['Ána Ruíz', ''],
    ['Ana María Ruiz', ''],
    ['Ana', 'Ruiz'],
    ['Ana M. Ruiz', ''],
    ['Maria Ana Ruiz', ''],
  ])('accepts %p %p for ANA MARIA RUIZ', (first, last) => expect(namesMatch({ first, last }, ana)).toBe(true));

  it.each([
    ['Ana Lopez', ''],
    ['Maria Lopez', ''],
    ['Ruiz', ''],
    ['Bob Ruiz', ''],
    ['', ''],
  ])('refuses %p %p for ANA MARIA RUIZ', (first, last) => expect(namesMatch({ first, last }, ana)).toBe(false));

  it('needs every word of a compound surname', () => {
    const registry = { first: 'José', last: 'García-Márquez' };
    expect(namesMatch({ first: 'Jose Garcia Marquez', last: '' }, registry)).toBe(true);
    expect(namesMatch({ first: 'Jose Garcia', last: '' }, registry)).toBe(false);
  });
});
