export {
  OpenAiEngine,
  OPENAI_ENGINE_DEFAULTS,
  type OpenAiEngineOptions,
  type OpenAiReadResult,
  type SummaryLogger,
} from './openai-engine';
export { createSummaryEngine, type SummaryEngineSettings } from './factory';
export { summaryEngineSettingsFromEnv } from './settings';
export { chunkDocument, labelPages, SYSTEM_PROMPT, type Chunk, type LabelledPage } from './prompt';
export { ChunkAnswer, CHUNK_RESPONSE_FORMAT } from './schema';
export { verifyFact, verifyNoneKnown, normaliseForMatch } from './verify';
