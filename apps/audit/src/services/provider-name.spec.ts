import { providerName, reasonFor } from './audit-log.service';

describe("the provider's name in a patient's history", () => {
  it('reads the name from a provider policy', () => {
    expect(providerName('provider:0b7e4c1e-5d1a-4c36-9a51-8f3f1f0c2a11:Dr Ana Ruiz (NPI 1234567893)')).toBe('Dr Ana Ruiz (NPI 1234567893)');
  });

  it("names a self-attested provider as a claim", () => {
    expect(providerName('provider:0b7e4c1e-5d1a-4c36-9a51-8f3f1f0c2a11:claims to be Dr Ana Ruiz (NPI 1234567893); not verified')).toBe('claims to be Dr Ana Ruiz (NPI 1234567893); not verified');
    expect(reasonFor('license.verify', 'denied')).toMatch(/another account claims the number, your claim on it was rejected/);
  });

  it('gives nothing for other policies, a denied attempt without a grant, or a malformed one', () => {
    for (const policy of ['owner', 'share-link:abc', 'provider:none', 'provider:', 'provider:abc:', null, undefined]) expect(providerName(policy)).toBeNull();
  });

  it('explains a refused licence check and a refused provider listing', () => {
    expect(reasonFor('license.verify', 'failure')).toMatch(/registry did not confirm/);
    expect(reasonFor('document.list', 'denied')).toMatch(/provider without your permission/);
  });
});
