// Reading the engine's settings from the environment, for the summary service and the one-process mode.
import type { SummaryEngineSettings } from './factory';

type Env = Record<string, string | undefined>;

function positiveInteger(env: Env, name: string): number | undefined {
  const raw = env[name]?.trim();
  if (!raw) return undefined;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0)
    throw new Error(`${name} must be a whole number of 0 or more (it is "${raw}").`);
  return value;
}

/**
 * SUMMARY_ENGINE ('local' | 'openai'; default: openai when OPENAI_API_KEY is set, else local),
 * OPENAI_API_KEY, OPENAI_BASE_URL, SUMMARY_MODEL, SUMMARY_TIMEOUT_MS, SUMMARY_MAX_RETRIES,
 * SUMMARY_CHUNK_CHARS, SUMMARY_TEMPERATURE (a number, or "none" to send none). Bad values fail at start-up with the setting's name.
 */
export function summaryEngineSettingsFromEnv(env: Env = process.env): SummaryEngineSettings {
  const requested = env['SUMMARY_ENGINE']?.trim();
  if (requested && requested !== 'local' && requested !== 'openai') {
    throw new Error(`SUMMARY_ENGINE must be "local" or "openai" (it is "${requested}").`);
  }
  const apiKey = env['OPENAI_API_KEY']?.trim();
  const engine: SummaryEngineSettings['engine'] =
    requested === 'local' || requested === 'openai' ? requested : apiKey ? 'openai' : 'local';
  if (engine === 'local') return { engine };
  if (!apiKey) throw new Error('SUMMARY_ENGINE is "openai" but OPENAI_API_KEY is not set.');
  const baseURL = env['OPENAI_BASE_URL']?.trim();
  const model = env['SUMMARY_MODEL']?.trim();
  const timeoutMs = positiveInteger(env, 'SUMMARY_TIMEOUT_MS');
  const maxRetries = positiveInteger(env, 'SUMMARY_MAX_RETRIES');
  const chunkChars = positiveInteger(env, 'SUMMARY_CHUNK_CHARS');
  const rawTemperature = env['SUMMARY_TEMPERATURE']?.trim();
  const temperature = rawTemperature === 'none' ? null : rawTemperature ? Number(rawTemperature) : undefined;
  if (temperature !== undefined && temperature !== null && !(temperature >= 0 && temperature <= 2)) {
    throw new Error(`SUMMARY_TEMPERATURE must be a number from 0 to 2, or "none" (it is "${rawTemperature}").`);
  }
  if (chunkChars !== undefined && chunkChars < 1_000) throw new Error('SUMMARY_CHUNK_CHARS must be at least 1000.');
  return {
    engine,
    openai: {
      apiKey,
      ...(baseURL ? { baseURL } : {}),
      ...(model ? { model } : {}),
      ...(timeoutMs !== undefined ? { timeoutMs } : {}),
      ...(maxRetries !== undefined ? { maxRetries } : {}),
      ...(chunkChars !== undefined ? { chunkChars } : {}),
      ...(temperature !== undefined ? { temperature } : {}),
    },
  };
}
