import type { SummaryItem } from '../../api/summary';
import { summaryFact } from './facts';

/**
 * The sample summary at /summary/sample (linked from the wallet preview): a made-up patient, shown
 * without any call, so visitors see what a doctor will read. Its sources point at no real document.
 */
export const SAMPLE_SUMMARY: SummaryItem = {
  summary: '',
  status: 'ready',
  version: 1,
  confirmed_version: 1,
  updated_at: '2026-01-01T00:00:00.000Z',
  documents: [],
  sections: [
    {
      key: 'current_conditions',
      title: 'Current Medical Conditions',
      state: 'facts',
      none_known: null,
      facts: [
        summaryFact({ id: 's1', text: 'Type 2 diabetes mellitus', onset: '2015' }),
        summaryFact({ id: 's2', text: 'High blood pressure', onset: '2019' }),
      ],
    },
    { key: 'past_history', title: 'Past Medical History', state: 'not_recorded', none_known: null, facts: [] },
    {
      key: 'medications',
      title: 'Medications',
      state: 'facts',
      none_known: null,
      facts: [
        summaryFact({ id: 's3', text: 'Metformin 500 mg by mouth twice daily', category: 'medication' }),
      ],
    },
    {
      key: 'allergies',
      title: 'Allergies',
      state: 'none_known',
      none_known: { text: 'No known drug allergies', sources: [] },
      facts: [],
    },
    { key: 'additional', title: 'Additional Categories', state: 'not_recorded', none_known: null, facts: [] },
  ],
};
