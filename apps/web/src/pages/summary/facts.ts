import type { SummaryFact } from '../../api/summary';

/**
 * A fact as the summary first reads it: an active, confirmed condition with no dates, code or details,
 * neither hidden nor edited, not added by the patient and with no sources; `fields` says what differs.
 * The sample summary is built with it (and so are the tests' summaries).
 */
export function summaryFact(fields: Pick<SummaryFact, 'id' | 'text'> & Partial<SummaryFact>): SummaryFact {
  return {
    category: 'condition',
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
    ...fields,
  };
}
