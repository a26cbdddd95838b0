import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { SummaryItem } from '../../api/summary';
import { fakeServer } from '../../test/fake-server';
import { renderPage } from '../../test/render';
import { clearTokens } from '../../session/tokens';
import { readIps } from './IpsView';
import { formatBirthDate } from './PatientLine';
import { summaryFact } from './facts';
import SummaryPage from './SummaryPage';

/*
 * On the shared page: whose summary it is (name and date of birth, or why not), and the FHIR
 * IPS offered as a download and a readable view instead of raw JSON in a tab.
 */

const shareId = 'kq3C1uXW0pDq3b0F7nHqXg';
const ada = { name: 'Ada Quintessa Example', given: 'Ada Quintessa', family: 'Example', birth_date: '1980-04-02' };

function shared(overrides: Partial<SummaryItem> = {}): SummaryItem {
  return {
    summary: '',
    status: 'ready',
    version: 2,
    confirmed_version: 2,
    updated_at: '2026-11-24T10:00:00.000Z',
    documents: [],
    sections: [
      {
        key: 'allergies',
        title: 'Allergies',
        state: 'facts',
        none_known: null,
        facts: [
          summaryFact({ id: 'f1', text: 'Penicillin (hives)', category: 'allergy' }),
        ],
      },
    ],
    shared: { label: 'For Dr Lee', expires_at: null, show_patient_identity: true },
    patient: ada,
    ...overrides,
  };
}

/** An IPS document Bundle as the summary service writes one (trimmed to what the view reads). */
const bundle = {
  resourceType: 'Bundle',
  type: 'document',
  entry: [
    {
      fullUrl: 'urn:uuid:c',
      resource: {
        resourceType: 'Composition',
        status: 'final',
        title: 'International Patient Summary',
        date: '2026-11-24T10:00:00Z',
        section: [
          { title: 'Allergies and Intolerances', entry: [{ reference: 'urn:uuid:a' }] },
          { title: 'Medication Summary', entry: [{ reference: 'urn:uuid:m' }] },
          { title: 'Results', entry: [{ reference: 'urn:uuid:o' }] },
          { title: 'Problem List', emptyReason: { text: 'No information available' } },
        ],
      },
    },
    { fullUrl: 'urn:uuid:p', resource: { resourceType: 'Patient', name: [{ given: ['Ada Quintessa'], family: 'Example', text: 'Ada Quintessa Example' }], birthDate: '1980-04-02' } },
    {
      fullUrl: 'urn:uuid:a',
      resource: {
        resourceType: 'AllergyIntolerance',
        code: { text: 'Penicillin', coding: [{ system: 'http://snomed.info/sct', code: '91936005' }] },
        reaction: [{ manifestation: [{ text: 'Hives' }] }],
      },
    },
    { fullUrl: 'urn:uuid:m', resource: { resourceType: 'MedicationStatement', medicationCodeableConcept: { text: 'Metformin 500 mg' }, dosage: [{ text: 'twice daily' }] } },
    {
      fullUrl: 'urn:uuid:o',
      resource: {
        resourceType: 'Observation',
        code: { text: 'Heart rate', coding: [{ system: 'http://loinc.org', code: '8867-4' }] },
        valueQuantity: { value: 84, unit: '/min', system: 'http://unitsofmeasure.org', code: '/min' },
      },
    },
  ],
};

function show(item: SummaryItem, routes: Parameters<typeof fakeServer>[0] = {}) {
  clearTokens();
  const server = fakeServer({ 'GET /api/summary/': () => ({ body: [item] }), ...routes });
  renderPage(<SummaryPage />, { path: '/summary/:id', at: `/summary/${shareId}` });
  return server;
}

afterEach(() => clearTokens());

describe("the patient's identity on a shared summary", () => {
  it('names the patient and their date of birth at the top', async () => {
    show(shared());
    const identity = await screen.findByTestId('patient-identity');
    expect(identity).toHaveTextContent('Patient');
    expect(identity).toHaveTextContent('Ada Quintessa Example');
    expect(identity).toHaveTextContent('Date of birth');
    expect(within(identity).getByText(formatBirthDate('1980-04-02'))).toHaveAttribute('dateTime', '1980-04-02');
  });

  it('on a link the patient made anonymous, says they chose not to show them, and names nobody', async () => {
    show(shared({ patient: null, shared: { label: 'Anonymous', expires_at: null, show_patient_identity: false } }));
    const identity = await screen.findByTestId('patient-identity');
    expect(identity).toHaveTextContent('The patient chose not to show their name and date of birth on this link');
    expect(screen.queryByText(/Ada/)).not.toBeInTheDocument();
  });

  it('when the name could not be loaded, says so rather than nothing', async () => {
    show(shared({ patient: null }));
    expect(await screen.findByTestId('patient-identity')).toHaveTextContent("The patient's name and date of birth could not be loaded just now");
  });
});

describe('the FHIR (IPS) of a shared summary', () => {
  it('shows it readably on View (patient, sections, entries with codes), fetched once, with the JSON folded away', async () => {
    const server = show(shared(), { 'GET /api/summary/fhir/': () => ({ body: bundle }) });
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'View' }));
    const dialog = await screen.findByRole('dialog', { name: 'FHIR International Patient Summary' });
    expect(await within(dialog).findByText('Ada Quintessa Example')).toBeInTheDocument();
    expect(within(dialog).getByRole('region', { name: 'Allergies and Intolerances' })).toHaveTextContent('Penicillin · Reaction: Hives');
    expect(within(dialog).getByRole('region', { name: 'Allergies and Intolerances' })).toHaveTextContent('SNOMED CT 91936005');
    expect(within(dialog).getByRole('region', { name: 'Results' })).toHaveTextContent('Heart rate · Value: 84 /min');
    expect(within(dialog).getByRole('region', { name: 'Problem List' })).toHaveTextContent('No information available');
    expect(within(dialog).getByText('The FHIR JSON')).toBeInTheDocument();
    expect(server.calls.filter((c) => c.path === `/api/summary/fhir/?user=${shareId}`)).toHaveLength(1);
  });

  it('saves the Bundle as a .json file on Download, without opening a tab', async () => {
    const saved: Blob[] = [];
    URL.createObjectURL = jest.fn((blob: Blob) => {
      saved.push(blob);
      return 'blob:https://localhost/ips';
    });
    URL.revokeObjectURL = jest.fn();
    const clicks: HTMLAnchorElement[] = [];
    const click = jest.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
      clicks.push(this);
    });
    try {
      const server = show(shared(), { 'GET /api/summary/fhir/': () => ({ body: bundle }) });
      await userEvent.setup().click(await screen.findByRole('button', { name: 'Download' }));
      await waitFor(() => expect(clicks).toHaveLength(1));
      expect(clicks[0]?.download).toMatch(/^Medfolio_IPS_\d{4}-\d{2}-\d{2}\.json$/);
      expect(clicks[0]?.target).toBe('');
      expect(saved[0]?.type).toBe('application/fhir+json');
      expect(JSON.parse((await saved[0]?.text()) ?? 'null')).toEqual(bundle);
      expect(server.calls.filter((c) => c.path.startsWith('/api/summary/fhir/'))).toHaveLength(1);
    } finally {
      click.mockRestore();
    }
  });

  it('reads an anonymous Bundle as "Not shown"', () => {
    const anonymous = { ...bundle, entry: bundle.entry.map((e) => (e.resource.resourceType === 'Patient' ? { ...e, resource: { resourceType: 'Patient', name: [{}] } } : e)) };
    expect(readIps(anonymous).patient).toEqual({ name: undefined, birthDate: undefined });
  });
});
