import { passDesign } from './pass-design';

const input = {
  serialNumber: '6f1c1c9e-0d7b-4c1e-9d3a-1f2e3d4c5b6a',
  organizationName: 'Medfolio',
  qrUrl: 'https://medfolio.test/summary/AbCdEfGhIjKlMnOpQrStUv',
  publicBaseUrl: 'https://medfolio.test/',
  updatedAt: new Date('2026-01-02T03:04:05Z'),
};

describe('passDesign', () => {
  it('shows the first name only when the patient allows it, and says how to revoke on the back', () => {
    const hidden = passDesign({ ...input, holderName: null, showName: false });
    expect(hidden.primary_fields).toEqual([{ key: 'holder', label: 'SCAN TO VIEW', value: 'My health summary' }]);
    const shown = passDesign({ ...input, holderName: 'Ada', showName: true });
    expect(shown.primary_fields).toEqual([{ key: 'holder', label: 'CARD HOLDER', value: 'Ada' }]);
    expect(shown.qr_url).toBe(input.qrUrl);
    const revoke = shown.back_fields.find((f) => f.key === 'revoke');
    expect(revoke?.value).toContain("Sign in at https://medfolio.test, open Share links and revoke the link named 'Wallet card'");
    expect(shown.back_fields.find((f) => f.key === 'site')?.value).toBe('https://medfolio.test');
  });

  it('promises nothing the card does not do: revoking retires it, a new one comes from the dashboard', () => {
    const back = passDesign({ ...input, holderName: null, showName: false }).back_fields;
    const text = (key: string) => back.find((f) => f.key === key)?.value ?? '';
    expect(text('about')).toContain("for as long as this card's link is active");
    expect(text('revoke')).toContain('this card is retired for good: it no longer updates. To carry a card again, issue a new one from your dashboard.');
    expect(text('remove')).toContain('Deleting it does not stop its link');
    // What the card used to claim: a new link after revoking, and that removing it cuts off copies.
    for (const field of back) {
      expect(field.value).not.toMatch(/new link|updates with|always/i);
    }
  });
});
