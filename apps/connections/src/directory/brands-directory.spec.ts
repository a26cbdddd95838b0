import { DirectoryError, parseBrandsBundle, searchDirectory } from './brands-directory';
import { SAMPLE_DIRECTORY } from './sample-directory';

const REST = { system: 'http://terminology.hl7.org/CodeSystem/endpoint-connection-type', code: 'hl7-fhir-rest' };

describe('the User-access Brands directory', () => {
  it('reads the sample: the three public sandboxes with their published FHIR base URLs', () => {
    const entries = parseBrandsBundle(SAMPLE_DIRECTORY);
    expect(entries.map((e) => [e.id, e.fhirBaseUrl])).toEqual([
      ['epic-sandbox-r4', 'https://fhir.epic.com/interconnect-fhir-oauth/api/FHIR/R4'],
      ['oracle-health-sandbox-r4', 'https://fhir-myrecord.cerner.com/r4/ec2458f2-1e24-41c8-b71b-0e701af7583d'],
      ['smart-launcher-r4', 'https://launch.smarthealthit.org/v/r4/fhir'],
    ]);
    expect(searchDirectory(entries, 'cerner', 10).map((e) => e.id)).toEqual(['oracle-health-sandbox-r4']);
  });

  it("gives facilities their brand's endpoint, one entry per endpoint with every name searchable", () => {
    const entries = parseBrandsBundle({
      resourceType: 'Bundle',
      entry: [
        { fullUrl: 'urn:b', resource: { resourceType: 'Organization', id: 'brand', name: 'Northside Health', endpoint: [{ reference: 'urn:e' }] } },
        { resource: { resourceType: 'Organization', id: 'f1', name: 'Northside Children’s Hospital', address: [{ city: 'Zürich', state: 'ZH' }], partOf: { reference: 'urn:b' } } },
        { fullUrl: 'urn:e', resource: { resourceType: 'Endpoint', id: 'ns', status: 'active', connectionType: REST, name: 'MyNorthside', address: 'https://fhir.northside.example/R4/' } },
        { resource: { resourceType: 'Endpoint', id: 'off', status: 'off', connectionType: REST, address: 'https://x.example' } },
        { resource: { resourceType: 'Organization', id: 'o2', name: 'Offline', endpoint: [{ reference: 'Endpoint/off' }] } },
      ],
    });
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ id: 'ns', name: 'Northside Health', aliases: ['Northside Children’s Hospital'], locations: ['Zürich, ZH'], portal: 'MyNorthside', fhirBaseUrl: 'https://fhir.northside.example/R4' });
    expect(searchDirectory(entries, 'ZURICH children', 10)).toHaveLength(1);
    expect(searchDirectory(entries, 'childrens zurich', 10)).toHaveLength(0);
    expect(searchDirectory(entries, '', 10)).toHaveLength(1);
  });

  it('refuses what is not a directory, naming the problem', () => {
    expect(() => parseBrandsBundle({ resourceType: 'Patient' })).toThrow(DirectoryError);
    expect(() => parseBrandsBundle({ resourceType: 'Bundle', entry: [] })).toThrow(/no usable Endpoint/);
    expect(() =>
      parseBrandsBundle({ resourceType: 'Bundle', entry: [{ resource: { resourceType: 'Organization', name: 'A', endpoint: [{ reference: 'Endpoint/x' }] } }, { resource: { resourceType: 'Endpoint', id: 'x', address: 'ftp://x' } }] }),
    ).toThrow(/no usable Endpoint/);
  });
});
