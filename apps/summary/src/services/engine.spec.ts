import { createEngine } from './engine';

describe('createEngine', () => {
  it('reads with the local engine when no OpenAI key is set', () => {
    expect(createEngine({}).name).toBe('local');
  });

  it('reads with the openai engine when OPENAI_API_KEY is set (no request is made to build it)', () => {
    expect(createEngine({ OPENAI_API_KEY: 'sk-test-not-a-real-key', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).name).toBe('openai');
  });

  it('keeps the local engine when SUMMARY_ENGINE asks for it even with a key', () => {
    expect(createEngine({ SUMMARY_ENGINE: 'local', OPENAI_API_KEY: 'sk-test-not-a-real-key' }).name).toBe('local');
  });

  it('refuses to start with the openai engine and no key, naming the setting', () => {
    expect(() => createEngine({ SUMMARY_ENGINE: 'openai' })).toThrow(/OPENAI_API_KEY/);
  });
});
