import { grantScopes, parseResourceScope, scopesAllow } from './scopes';

describe('SMART scopes', () => {
  it('reads v1 and v2 resource scopes and refuses malformed ones', () => {
    expect(parseResourceScope('patient/Observation.read')).toMatchObject({ context: 'patient', resourceType: 'Observation', read: true, search: true, version: 1 });
    expect(parseResourceScope('patient/*.*')).toMatchObject({ scope: 'patient/*.read', read: true, version: 1 });
    expect(parseResourceScope('patient/*.write')).toMatchObject({ read: false, search: false });
    expect(parseResourceScope('patient/*.cruds')).toMatchObject({ scope: 'patient/*.rs', read: true, search: true, version: 2 });
    expect(parseResourceScope('patient/Condition.s')).toMatchObject({ read: false, search: true });
    expect(parseResourceScope('patient/Observation.rs?category=laboratory')).toMatchObject({ query: 'category=laboratory' });
    for (const bad of ['patient/Observation.sr', 'patient/Observation.x', 'patient/observation.rs', 'patient/Observation', 'launch/patient', 'openid', 'patient/Observation.read?x=1']) {
      expect(parseResourceScope(bad)).toBeNull();
    }
  });

  it('grants context scopes and patient read scopes of the versions spoken, nothing else', () => {
    const asked = 'launch/patient openid fhirUser offline_access patient/*.rs patient/*.read user/*.rs system/*.read patient/Observation.rs?category=vital-signs patient/*.cud made-up';
    expect(grantScopes(asked, 'both')).toEqual(['launch/patient', 'openid', 'fhirUser', 'offline_access', 'patient/*.rs', 'patient/*.read']);
    expect(grantScopes(asked, 'v1')).toEqual(['launch/patient', 'openid', 'fhirUser', 'offline_access', 'patient/*.read']);
    expect(grantScopes(asked, 'v2')).toEqual(['launch/patient', 'openid', 'fhirUser', 'offline_access', 'patient/*.rs']);
    expect(grantScopes('patient/*.cruds patient/*.cruds', 'v2')).toEqual(['patient/*.rs']);
  });

  it('allows a read or a search only through a patient scope that names it', () => {
    expect(scopesAllow(['patient/*.rs'], 'Observation', 'read')).toBe(true);
    expect(scopesAllow(['patient/Observation.r'], 'Observation', 'search')).toBe(false);
    expect(scopesAllow(['patient/Observation.s'], 'Observation', 'search')).toBe(true);
    expect(scopesAllow(['patient/Observation.rs'], 'Condition', 'read')).toBe(false);
    expect(scopesAllow(['patient/*.read'], 'Condition', 'search')).toBe(true);
    expect(scopesAllow(['user/*.rs', 'launch/patient'], 'Observation', 'read')).toBe(false);
  });
});
