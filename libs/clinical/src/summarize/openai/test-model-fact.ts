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
