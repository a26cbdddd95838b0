/**
 * SMART App Launch scopes (v1 `patient/Observation.read`, v2 `patient/Observation.rs`), as the
 * sandbox's authorization server grants them and its FHIR server checks them on every request.
 * Only patient-level read and search are granted: the sandbox is a patient-access API.
 */

/** Which scope grammar the server speaks: SMART v1 only, v2 only, or both (SMART 2.x servers usually do). */
export type SmartScopeVersions = 'v1' | 'v2' | 'both';

/** The scopes that name no resource and that the sandbox grants when asked. */
export const CONTEXT_SCOPES = ['openid', 'fhirUser', 'profile', 'launch/patient', 'offline_access', 'online_access'] as const;

export interface ResourceScope {
  /** The scope as granted (v1 `.*` becomes `.read`, v2 `cruds` becomes `rs`). */
  scope: string;
  context: 'patient' | 'user' | 'system';
  /** A resource type, or `*` for every type. */
  resourceType: string;
  read: boolean;
  search: boolean;
  version: 1 | 2;
  /** A v2 scope's `?param=value` restriction (the sandbox never grants these). */
  query?: string;
}

const RESOURCE_SCOPE = /^(patient|user|system)\/([A-Z][A-Za-z]+|\*)\.([a-z*]+)(\?.*)?$/;
const V2_PERMISSIONS = /^c?r?u?d?s?$/;

/** Reads one resource scope, or null when the text is not one (a context scope, or malformed). */
export function parseResourceScope(text: string): ResourceScope | null {
  const match = RESOURCE_SCOPE.exec(text);
  if (!match) return null;
  const [, context, resourceType, permissions, query] = match as unknown as [string, ResourceScope['context'], string, string, string | undefined];
  if (permissions === 'read' || permissions === '*' || permissions === 'write') {
    if (query) return null;
    const read = permissions !== 'write';
    return { scope: `${context}/${resourceType}.${read ? 'read' : 'write'}`, context, resourceType, read, search: read, version: 1 };
  }
  if (permissions.length === 0 || !V2_PERMISSIONS.test(permissions)) return null;
  const read = permissions.includes('r');
  const search = permissions.includes('s');
  const granted = `${read ? 'r' : ''}${search ? 's' : ''}`;
  return { scope: `${context}/${resourceType}.${granted || permissions}`, context, resourceType, read, search, version: 2, ...(query ? { query: query.slice(1) } : {}) };
}

/**
 * What the server grants of what was asked: the context scopes it knows, and the patient-level
 * read/search scopes of the versions it speaks, without v2 query restrictions. Unknown, write-only,
 * user- and system-level scopes are dropped (the token response's `scope` says what was granted).
 */
export function grantScopes(requested: string, versions: SmartScopeVersions): string[] {
  const granted: string[] = [];
  for (const text of requested.split(/\s+/).filter(Boolean)) {
    if ((CONTEXT_SCOPES as readonly string[]).includes(text)) {
      if (!granted.includes(text)) granted.push(text);
      continue;
    }
    const scope = parseResourceScope(text);
    if (!scope || scope.context !== 'patient' || scope.query !== undefined || !(scope.read || scope.search)) continue;
    if (versions !== 'both' && `v${scope.version}` !== versions) continue;
    if (!granted.includes(scope.scope)) granted.push(scope.scope);
  }
  return granted;
}

/** Whether granted scopes allow reading (`read`) or searching (`search`) a resource type. */
export function scopesAllow(granted: readonly string[], resourceType: string, interaction: 'read' | 'search'): boolean {
  return granted.some((text) => {
    const scope = parseResourceScope(text);
    if (!scope || scope.context !== 'patient' || scope.query !== undefined) return false;
    if (scope.resourceType !== '*' && scope.resourceType !== resourceType) return false;
    return interaction === 'read' ? scope.read : scope.search;
  });
}
