import { summaryEngineSettingsFromEnv } from './settings';

describe('summaryEngineSettingsFromEnv', () => {
  it('is local without an API key, openai with one', () => {
    expect(summaryEngineSettingsFromEnv({})).toEqual({ engine: 'local' });
    expect(
      summaryEngineSettingsFromEnv({
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: 'http://127.0.0.1:8080/v1',
        SUMMARY_MODEL: 'local-model',
        SUMMARY_TIMEOUT_MS: '20000',
      }),
    ).toEqual({
      engine: 'openai',
      openai: { apiKey: 'k', baseURL: 'http://127.0.0.1:8080/v1', model: 'local-model', timeoutMs: 20_000 },
    });
    expect(summaryEngineSettingsFromEnv({ OPENAI_API_KEY: 'k', SUMMARY_ENGINE: 'local' })).toEqual({ engine: 'local' });
    expect(
      summaryEngineSettingsFromEnv({ OPENAI_API_KEY: 'k', SUMMARY_TEMPERATURE: 'none' }).openai?.temperature,
    ).toBeNull();
  });

  it('names the setting that is wrong', () => {
    expect(() => summaryEngineSettingsFromEnv({ SUMMARY_ENGINE: 'openai' })).toThrow(/OPENAI_API_KEY/);
    expect(() => summaryEngineSettingsFromEnv({ SUMMARY_ENGINE: 'gpt' })).toThrow(/SUMMARY_ENGINE/);
    expect(() => summaryEngineSettingsFromEnv({ OPENAI_API_KEY: 'k', SUMMARY_TIMEOUT_MS: '20s' })).toThrow(
      /SUMMARY_TIMEOUT_MS/,
    );
    expect(() => summaryEngineSettingsFromEnv({ OPENAI_API_KEY: 'k', SUMMARY_CHUNK_CHARS: '10' })).toThrow(
      /SUMMARY_CHUNK_CHARS/,
    );
    expect(() => summaryEngineSettingsFromEnv({ OPENAI_API_KEY: 'k', SUMMARY_TEMPERATURE: 'warm' })).toThrow(
      /SUMMARY_TEMPERATURE/,
    );
  });
});
