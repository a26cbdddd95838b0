/**
 * The sample endpoint directory (used when FHIR_ENDPOINTS_FILE is unset): the public patient-access
 * sandboxes, as a SMART App Launch 2.2 User-access Brands Bundle. The FHIR base URLs are the ones
 * the vendors publish: Epic on FHIR's sandbox (fhir.epic.com), Oracle Health Millennium's secure
 * sandbox for patient access (docs.oracle.com, "Service Root URL"), and the SMART App Launcher's
 * R4 server (launch.smarthealthit.org). Connecting to Epic or Oracle Health needs a client id
 * registered with them (SMART_DEFAULT_CLIENT_ID); the SMART launcher accepts any.
 */
const USER_ACCESS_ENDPOINT = 'http://hl7.org/fhir/smart-app-launch/StructureDefinition/user-access-endpoint';
const USER_ACCESS_BRAND = 'http://hl7.org/fhir/smart-app-launch/StructureDefinition/user-access-brand';
const FHIR_REST = { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' };
const PAYLOAD = [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/endpoint-payload-type', code: 'none' }] }];
const R4 = [{ url: 'http://hl7.org/fhir/StructureDefinition/endpoint-fhir-version', valueCode: '4.0.1' }];

function endpoint(id: string, name: string, address: string, contact: string) {
  return {
    fullUrl: `urn:medfolio:endpoint:${id}`,
    resource: { resourceType: 'Endpoint', id, meta: { profile: [USER_ACCESS_ENDPOINT] }, extension: R4, status: 'active', connectionType: FHIR_REST, name, contact: [{ system: 'url', value: contact }], payloadType: PAYLOAD, address },
  };
}

function brand(id: string, name: string, aliases: string[], endpointId: string, website: string) {
  return {
    fullUrl: `urn:medfolio:brand:${id}`,
    resource: { resourceType: 'Organization', id, meta: { profile: [USER_ACCESS_BRAND] }, active: true, name, alias: aliases, telecom: [{ system: 'url', value: website }], endpoint: [{ reference: `Endpoint/${endpointId}` }] },
  };
}

export const SAMPLE_DIRECTORY = {
  resourceType: 'Bundle',
  id: 'medfolio-sample-endpoints',
  type: 'collection',
  timestamp: '2026-11-27T00:00:00Z',
  entry: [
    brand('epic-sandbox', 'Epic on FHIR sandbox', ['Epic', 'MyChart sandbox'], 'epic-sandbox-r4', 'https://fhir.epic.com/'),
    endpoint('epic-sandbox-r4', 'Epic sandbox (R4)', 'https://fhir.epic.com/interconnect-fhir-oauth/api/FHIR/R4', 'https://fhir.epic.com/'),
    brand('oracle-health-sandbox', 'Oracle Health (Cerner) sandbox', ['Cerner', 'Oracle Health Millennium'], 'oracle-health-sandbox-r4', 'https://docs.oracle.com/en/industries/health/millennium-platform-apis/'),
    endpoint('oracle-health-sandbox-r4', 'Oracle Health patient access sandbox (R4)', 'https://fhir-myrecord.cerner.com/r4/ec2458f2-1e24-41c8-b71b-0e701af7583d', 'https://docs.oracle.com/en/industries/health/millennium-platform-apis/mfrap/srv_root_url.html'),
    brand('smart-launcher', 'SMART App Launcher', ['SMART Health IT', 'SMART sandbox'], 'smart-launcher-r4', 'https://launch.smarthealthit.org/'),
    endpoint('smart-launcher-r4', 'SMART launcher (R4)', 'https://launch.smarthealthit.org/v/r4/fhir', 'https://launch.smarthealthit.org/'),
  ],
} as const;
