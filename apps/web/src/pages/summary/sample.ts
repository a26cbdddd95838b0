import type { SummaryItem } from '../../api/summary';

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
        {
          id: 's1',
          text: 'Type 2 diabetes mellitus',
          category: 'condition',
          status: 'active',
          onset: '2015',
          end: null,
          code: null,
          details: null,
          certainty: 'confirmed',
          hidden: false,
          edited: false,
          added_by_patient: false,
          sources: [],
        },
        {
          id: 's2',
          text: 'High blood pressure',
          category: 'condition',
          status: 'active',
          onset: '2019',
          end: null,
          code: null,
          details: null,
          certainty: 'confirmed',
          hidden: false,
          edited: false,
          added_by_patient: false,
          sources: [],
        },
      ],
    },
    { key: 'past_history', title: 'Past Medical History', state: 'not_recorded', none_known: null, facts: [] },
    {
      key: 'medications',
      title: 'Medications',
      state: 'facts',
      none_known: null,
      facts: [
        {
          id: 's3',
          text: 'Metformin 500 mg by mouth twice daily',
          category: 'medication',
          status: 'active',
          onset: null,
          end: null,
          code: null,
          details: null,
          certainty: 'confirmed',
          hidden: false,
          edited: false,
          added_by_patient: false,
          sources: [],
        },
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
