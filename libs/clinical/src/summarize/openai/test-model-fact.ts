// Test helper: the model's answer pieces the OpenAI engine's specs build facts from.
import type { ModelFact } from './schema';

/** A fact's details with nothing said (the strict schema sends every field, null when absent). */
export const NO_DETAILS: ModelFact['details'] = {
  dose: null,
  route: null,
  frequency: null,
  reaction: null,
  severity: null,
  value: null,
  unit: null,
  interpretation: null,
};

/** A fact as the model answers it: a confirmed active condition with nothing else said, unless `partial` says otherwise. */
export function modelFact(partial: Partial<ModelFact> & Pick<ModelFact, 'text' | 'citation'>): ModelFact {
  return {
    section: 'current_conditions',
    category: 'condition',
    status: 'active',
    certainty: 'confirmed',
    onset: null,
    end: null,
    details: NO_DETAILS,
    code: null,
    ...partial,
  };
}
