import type { SmartSandbox } from './smart-sandbox';

/**
 * A SMART App Launch 2.2 User-access Brands Bundle with one brand and one endpoint: the sandbox's FHIR
 * base. Written to a file, it is a directory for the connections service (FHIR_ENDPOINTS_FILE).
 */
export function sandboxDirectory(sandbox: Pick<SmartSandbox, 'fhirBaseUrl'>, endpointId = 'local-sandbox', name = 'Local SMART sandbox'): Record<string, unknown> {
  return {
    resourceType: 'Bundle',
    type: 'collection',
    entry: [
      { fullUrl: `urn:sandbox:brand:${endpointId}`, resource: { resourceType: 'Organization', id: `${endpointId}-brand`, name, address: [{ city: 'Springfield', state: 'IL' }], endpoint: [{ reference: `Endpoint/${endpointId}` }] } },
      {
        fullUrl: `urn:sandbox:endpoint:${endpointId}`,
        resource: {
          resourceType: 'Endpoint',
          id: endpointId,
          meta: { profile: ['http://hl7.org/fhir/smart-app-launch/StructureDefinition/user-access-endpoint'] },
          status: 'active',
          connectionType: { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' },
          name: `${name} (R4)`,
          payloadType: [{ coding: [{ system: 'http://terminology.hl7.org/CodeSystem/endpoint-payload-type', code: 'none' }] }],
          address: sandbox.fhirBaseUrl,
        },
      },
    ],
  };
}
