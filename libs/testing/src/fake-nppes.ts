import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One provider as the NPPES NPI Registry API (version 2.1) describes it. */
export interface FakeNppesProvider {
  number: string;
  /** NPI-1: an individual; NPI-2: an organisation. */
  enumeration_type: 'NPI-1' | 'NPI-2';
  first_name?: string;
  middle_name?: string;
  last_name?: string;
  organization_name?: string;
  credential?: string;
  taxonomies?: { code: string; desc: string; state: string; license?: string; primary: boolean }[];
}

/** 'error': every lookup answers 503. 'hang': lookups are accepted and never answered (a time-out). */
export type FakeNppesOutage = 'none' | 'error' | 'hang';

/** Sample records for tests: NPIs with valid check digits. */
export const NPPES_SAMPLES = {
  /** An individual: Dr Ana María Ruiz, Internal Medicine, CA. */
  ana: {
    number: '1234567893',
    enumeration_type: 'NPI-1',
    first_name: 'ANA',
    middle_name: 'MARIA',
    last_name: 'RUIZ',
    credential: 'M.D.',
    taxonomies: [
      { code: '207R00000X', desc: 'Internal Medicine', state: 'CA', license: 'A123456', primary: true },
      { code: '207Q00000X', desc: 'Family Medicine', state: 'NV', license: 'B7788', primary: false },
    ],
  },
  /** An organisation (NPI-2). */
  clinic: { number: '1245319599', enumeration_type: 'NPI-2', organization_name: 'HILLSIDE CLINIC LLC', taxonomies: [{ code: '261QP2300X', desc: 'Clinic/Center, Primary Care', state: 'OR', primary: true }] },
  /** Another individual: Dr John Smith, Family Medicine, TX. */
  john: { number: '1003000126', enumeration_type: 'NPI-1', first_name: 'JOHN', last_name: 'SMITH', credential: 'DO', taxonomies: [{ code: '207Q00000X', desc: 'Family Medicine', state: 'TX', primary: true }] },
  /** A third individual: Dr Mei Chen, Cardiovascular Disease, WA (the system tests' share-link journey). */
  mei: { number: '1987654328', enumeration_type: 'NPI-1', first_name: 'MEI', last_name: 'CHEN', credential: 'MD', taxonomies: [{ code: '207RC0000X', desc: 'Cardiovascular Disease', state: 'WA', primary: true }] },
} satisfies Record<string, FakeNppesProvider>;

/**
 * A stand-in for the NPPES NPI Registry API on a loopback port: `GET /api/?version=2.1&number=…`
 * answers as the registry does (`result_count` and `results[]` with `enumeration_type`, `basic`,
 * `taxonomies`; `result_count: 0` for an unknown number; `Errors` for a malformed one). Set
 * `outage` to test a registry that fails or hangs. Point identity's NPI_REGISTRY_URL at `url`.
 */
export class FakeNppes {
  outage: FakeNppesOutage = 'none';
  /** The numbers looked up, in order (to see that a malformed number never reached the registry). */
  readonly lookups: string[] = [];
  private readonly providers = new Map<string, FakeNppesProvider>();
  private readonly hanging = new Set<ServerResponse>();

  private constructor(private readonly server: Server) {}

  static async start(providers: FakeNppesProvider[] = Object.values(NPPES_SAMPLES), port = 0): Promise<FakeNppes> {
    const holder: { fake?: FakeNppes } = {};
    const server = createServer((req, res) => holder.fake?.handle(req, res));
    const fake = new FakeNppes(server);
    holder.fake = fake;
    for (const p of providers) fake.add(p);
    await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
    return fake;
  }

  /** NPI_REGISTRY_URL for identity. */
  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/?version=2.1`;
  }

  add(provider: FakeNppesProvider): void {
    this.providers.set(provider.number, provider);
  }

  async stop(): Promise<void> {
    for (const res of this.hanging) res.destroy();
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private handle(req: IncomingMessage, res: ServerResponse): void {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== '/api/' || req.method !== 'GET') return this.json(res, 404, { Errors: [{ description: 'Not found' }] });
    const number = url.searchParams.get('number') ?? '';
    this.lookups.push(number);
    if (this.outage === 'hang') {
      this.hanging.add(res);
      res.on('close', () => this.hanging.delete(res));
      return;
    }
    if (this.outage === 'error') return this.json(res, 503, { message: 'Service Unavailable' });
    if (url.searchParams.get('version') !== '2.1') return this.json(res, 200, { Errors: [{ description: 'Unsupported Version', field: 'version', number: '06' }] });
    if (!/^\d{10}$/.test(number)) return this.json(res, 200, { Errors: [{ description: 'Field number requires number with exactly 10 digits', field: 'number', number: '04' }] });
    const provider = this.providers.get(number);
    if (!provider) return this.json(res, 200, { result_count: 0, results: [] });
    return this.json(res, 200, { result_count: 1, results: [toResult(provider)] });
  }

  private json(res: ServerResponse, status: number, body: unknown): void {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }
}

function toResult(p: FakeNppesProvider): Record<string, unknown> {
  const basic =
    p.enumeration_type === 'NPI-1'
      ? { first_name: p.first_name, last_name: p.last_name, ...(p.middle_name ? { middle_name: p.middle_name } : {}), credential: p.credential ?? '', sole_proprietor: 'NO', sex: 'F', enumeration_date: '2006-05-23', last_updated: '2021-07-19', status: 'A', name_prefix: 'Dr.' }
      : { organization_name: p.organization_name, organizational_subpart: 'NO', enumeration_date: '2007-01-10', last_updated: '2020-03-02', status: 'A', authorized_official_first_name: 'JANE', authorized_official_last_name: 'DOE' };
  return {
    created_epoch: '1148342400000',
    enumeration_type: p.enumeration_type,
    last_updated_epoch: '1626710400000',
    number: p.number,
    addresses: [{ country_code: 'US', address_purpose: 'LOCATION', address_type: 'DOM', address_1: '1 MAIN ST', city: 'SPRINGFIELD', state: p.taxonomies?.[0]?.state ?? 'CA', postal_code: '900010000' }],
    practiceLocations: [],
    basic,
    taxonomies: p.taxonomies ?? [],
    identifiers: [],
    endpoints: [],
    other_names: [],
  };
}
