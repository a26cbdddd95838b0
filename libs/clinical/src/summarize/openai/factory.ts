// The one place the summary service turns its settings into an engine.
import type { SummaryEngine } from '../../model';
import { LocalEngine } from '../local-engine';
import { OpenAiEngine, type OpenAiEngineOptions } from './openai-engine';

export interface SummaryEngineSettings {
  engine: 'local' | 'openai';
  /** Required when engine is 'openai' (OPENAI_API_KEY, OPENAI_BASE_URL, SUMMARY_MODEL...). */
  openai?: OpenAiEngineOptions;
}

export function createSummaryEngine(settings: SummaryEngineSettings): SummaryEngine {
  switch (settings.engine) {
    case 'local':
      return new LocalEngine();
    case 'openai':
      if (!settings.openai?.apiKey) {
        throw new Error('The openai summary engine needs OPENAI_API_KEY; set it, or use the local engine.');
      }
      return new OpenAiEngine(settings.openai);
  }
}
