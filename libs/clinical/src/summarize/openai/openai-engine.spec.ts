import { inspect } from 'node:util';
import { FakeOpenAi } from '@medfolio/testing';
import type { ClinicalFact, EngineInput } from '../../model';
import { textInput } from '../test-input';
import { createSummaryEngine } from './factory';
import { OpenAiEngine, type OpenAiEngineOptions, type SummaryLogger } from './openai-engine';
import type { ChunkAnswer } from './schema';
import { modelFact, NO_DETAILS } from './test-model-fact';

const PAGE_1 = `Clinic Note
Date of Service: 03/14/2024
Problem List:
- Type 2 diabetes mellitus (E11.9), since 2016
- Essential hypertension
Medications:
- Metformin 500 mg by mouth twice daily
Allergies: No known drug allergies`;
const PAGE_2 = `Assessment: doing well. Blood pressure con-
trolled on lisinopril 10 mg daily.`;

const fact = modelFact;

const DIABETES = fact({
  text: 'Type 2 diabetes mellitus',
  onset: '2016',
  code: { system: 'ICD-10-CM', code: 'E11.9' },
  citation: { page: 1, quote: 'Type 2 diabetes mellitus (E11.9), since 2016' },
});
const METFORMIN = fact({
  section: 'medications',
  category: 'medication',
  text: 'Metformin 500 mg by mouth twice daily',
  details: { ...NO_DETAILS, dose: '500 mg', route: 'by mouth', frequency: 'twice daily' },
  citation: { page: 1, quote: '- Metformin 500 mg by mouth twice daily' },
});
// The quote is copied with the line break's hyphen joined, as a model does.
const LISINOPRIL = fact({
  section: 'medications',
  category: 'medication',
  text: 'Lisinopril 10 mg daily',
  details: { ...NO_DETAILS, dose: '10 mg', frequency: 'daily' },
  citation: { page: 2, quote: 'Blood pressure controlled on lisinopril 10 mg daily.' },
});
const NKDA = {
  section: 'allergies' as const,
  text: 'No known drug allergies',
  citation: { page: 1, quote: 'Allergies: No known drug allergies' },
};
const GOOD: ChunkAnswer = { facts: [DIABETES, METFORMIN, LISINOPRIL], noneKnown: [NKDA] };

const input = (): EngineInput => textInput([PAGE_1, PAGE_2], { documentId: 'doc-7', filename: 'visit.pdf' });

let ai: FakeOpenAi;
beforeEach(async () => {
  ai = await FakeOpenAi.start();
});
afterEach(async () => {
  await ai.stop();
});

const engine = (options: Partial<OpenAiEngineOptions> = {}): OpenAiEngine =>
  new OpenAiEngine({
    apiKey: 'test-key',
    baseURL: ai.baseURL,
    model: 'test-model',
    timeoutMs: 5_000,
    maxRetries: 2,
    ...options,
  });

const names = (facts: ClinicalFact[]): string[] => facts.map((f) => f.text);

describe('OpenAiEngine against a local OpenAI-compatible server', () => {
  it('sends the labelled pages with a strict JSON schema and keeps the facts their pages support, cited', async () => {
    ai.reply({ answer: GOOD });
    const result = await engine().read([input()]);

    expect(ai.requests).toHaveLength(1);
    const [request] = ai.requests;
    expect(request?.headers.authorization).toBe('Bearer test-key');
    expect(request?.body.model).toBe('test-model');
    expect(request?.body['temperature']).toBe(0);
    expect(request?.body.response_format?.type).toBe('json_schema');
    expect(request?.body.response_format?.json_schema?.strict).toBe(true);
    expect(request?.userContent).toContain(`=== Page 1 ===\n${PAGE_1}`);
    expect(request?.userContent).toContain(`=== Page 2 ===\n${PAGE_2}`);

    expect(result.droppedUnsupported).toBe(0);
    expect(result.problems).toEqual([]);
    expect(names(result.facts)).toEqual([
      'Type 2 diabetes mellitus',
      'Metformin 500 mg by mouth twice daily',
      'Lisinopril 10 mg daily',
    ]);
    expect(result.facts[0]).toMatchObject({
      section: 'current_conditions',
      code: { system: 'ICD-10-CM', code: 'E11.9' },
      onset: '2016',
      recorded: '2024-03-14',
      sources: [
        { documentId: 'doc-7', filename: 'visit.pdf', page: 1, quote: 'Type 2 diabetes mellitus (E11.9), since 2016' },
      ],
    });
    expect(result.facts[1]?.details).toEqual({ dose: '500 mg', route: 'by mouth', frequency: 'twice daily' });
    expect(result.facts[2]?.sources[0]?.page).toBe(2);
    expect(result.noneKnown).toEqual([
      {
        section: 'allergies',
        text: 'No known drug allergies',
        recorded: '2024-03-14',
        sources: [{ documentId: 'doc-7', filename: 'visit.pdf', page: 1, quote: 'Allergies: No known drug allergies' }],
      },
    ]);
  });

  it('sends no temperature when told to (reasoning models refuse one)', async () => {
    await engine({ temperature: null }).read([input()]);
    expect(ai.requests[0]?.body).not.toHaveProperty('temperature');
  });

  it('asks once more after a malformed answer, then uses the second', async () => {
    ai.reply({ content: '{"facts": [{"section": "medic' }, { answer: GOOD });
    const result = await engine().read([input()]);
    expect(ai.requests).toHaveLength(2);
    expect(result.problems).toEqual([]);
    expect(result.facts).toHaveLength(3);
  });

  it('reports a chunk whose answers break the schema twice, without throwing', async () => {
    ai.reply({ answer: { facts: [{ text: 'Metformin' }], noneKnown: [] } }, { content: 'not json at all' });
    const result = await engine().read([input()]);
    expect(ai.requests).toHaveLength(2);
    expect(result.facts).toEqual([]);
    expect(result.problems).toEqual([
      {
        filename: 'visit.pdf',
        reason:
          "The summary model's answer for pages 1-2 of visit.pdf could not be used; it is left out of the summary.",
      },
    ]);
  });

  it('waits as a 429 Retry-After says, then succeeds', async () => {
    ai.reply({ error: 429, headers: { 'retry-after': '1' } }, { answer: GOOD });
    const started = Date.now();
    const result = await engine().read([input()]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(950);
    expect(ai.requests).toHaveLength(2);
    expect(result.facts).toHaveLength(3);
    expect(result.problems).toEqual([]);
  });

  it('gives up on a call that passes its time limit and reports it', async () => {
    ai.reply({ hang: true });
    const started = Date.now();
    const result = await engine({ timeoutMs: 300, maxRetries: 0 }).read([input()]);
    expect(Date.now() - started).toBeLessThan(3_000);
    expect(result.facts).toEqual([]);
    expect(result.problems[0]?.reason).toBe(
      'The summary model did not answer in time for pages 1-2 of visit.pdf; it is left out of the summary.',
    );
  });

  it('stops when the caller aborts', async () => {
    ai.reply({ hang: true });
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 200);
    await expect(engine({ timeoutMs: 10_000 }).read([input()], controller.signal)).rejects.toThrow();
  });

  it('drops and counts facts their cited page does not support', async () => {
    ai.reply({
      answer: {
        facts: [
          DIABETES,
          // The quote is on page 1, not on the page cited.
          fact({
            text: 'Type 2 diabetes mellitus',
            citation: { page: 2, quote: 'Type 2 diabetes mellitus (E11.9), since 2016' },
          }),
          // A real quote that says nothing of the fact.
          fact({ text: 'Atrial fibrillation', citation: { page: 1, quote: 'Essential hypertension' } }),
          // A dose the page does not give.
          { ...METFORMIN, details: { ...NO_DETAILS, dose: '1000 mg' } },
          // A page the document does not have.
          fact({ text: 'Essential hypertension', citation: { page: 9, quote: 'Essential hypertension' } }),
        ],
        // "None known" whose quote does not say none.
        noneKnown: [{ section: 'medications', text: 'No medications', citation: { page: 1, quote: 'Medications:' } }],
      },
    });
    const result = await engine().read([input()]);
    expect(names(result.facts)).toEqual(['Type 2 diabetes mellitus']);
    expect(result.noneKnown).toEqual([]);
    expect(result.droppedUnsupported).toBe(5);
  });

  it('reports a chunk whose 5xx answers outlast the retries and keeps the other chunks', async () => {
    ai.respond = (request) =>
      request.userContent.includes('=== Page 2 ===')
        ? { error: 503 }
        : { answer: { facts: [DIABETES], noneKnown: [] } };
    const result = await engine({ maxRetries: 1, chunkChars: PAGE_1.length + 10 }).read([input()]);
    // Page 1 once; page 2 once and once more.
    expect(ai.requests).toHaveLength(3);
    expect(names(result.facts)).toEqual(['Type 2 diabetes mellitus']);
    expect(result.problems).toEqual([
      {
        filename: 'visit.pdf',
        reason: "The summary model's answer for page 2 of visit.pdf could not be used; it is left out of the summary.",
      },
    ]);
  });

  it('sends a long document in chunks of whole pages, keeping page numbers for citations', async () => {
    const pages = Array.from(
      { length: 5 },
      (_, i) => `Progress note page ${i + 1}\n${'Stable, no changes. '.repeat(45)}`,
    );
    pages[4] = `${pages[4]}\nProblem: Gout, on allopurinol 100 mg daily.`;
    ai.respond = (request) =>
      request.userContent.includes('=== Page 5 ===')
        ? {
            answer: {
              facts: [
                fact({ text: 'Gout', citation: { page: 5, quote: 'Problem: Gout, on allopurinol 100 mg daily.' } }),
              ],
              noneKnown: [],
            },
          }
        : { answer: { facts: [], noneKnown: [] } };
    const result = await engine({ chunkChars: 2_000 }).read([
      textInput(pages, { documentId: 'long', filename: 'long.pdf' }),
    ]);

    const labels = ai.requests.map((r) => [...r.userContent.matchAll(/=== Page (\d+) ===/g)].map((m) => Number(m[1])));
    expect(labels).toEqual([[1, 2], [3, 4], [5]]);
    for (const r of ai.requests) expect(r.userContent.length).toBeLessThan(2_000 + 100);
    expect(result.facts).toHaveLength(1);
    expect(result.facts[0]?.sources[0]).toMatchObject({ documentId: 'long', filename: 'long.pdf', page: 5 });
  });

  it('cites the right document when several are read at once and answers come back out of order', async () => {
    const first = textInput(['Problem list: Gout'], { documentId: 'first', filename: 'first.pdf' });
    const second = textInput(['Problem list: Asthma'], { documentId: 'second', filename: 'second.pdf' });
    ai.respond = (request) => {
      const name = request.userContent.includes('Gout') ? 'Gout' : 'Asthma';
      return {
        // The first document's answer arrives last.
        delayMs: name === 'Gout' ? 300 : 0,
        answer: { facts: [fact({ text: name, citation: { page: 1, quote: `Problem list: ${name}` } })], noneKnown: [] },
      };
    };
    const result = await engine({ concurrency: 2 }).read([first, second]);
    expect(result.facts.map((f) => [f.text, f.sources[0]?.documentId, f.sources[0]?.filename])).toEqual([
      ['Gout', 'first', 'first.pdf'],
      ['Asthma', 'second', 'second.pdf'],
    ]);
  });

  it('passes structured (C-CDA, FHIR) facts through and never sends their documents', async () => {
    const structured: EngineInput = {
      ...textInput('Problems\nAsthma', { documentId: 'ccd', filename: 'ccd.xml' }),
      documentDate: '2023-05-01',
      facts: [
        {
          section: 'current_conditions',
          category: 'condition',
          text: 'Asthma',
          status: 'active',
          sources: [{ documentId: 'ccd', filename: 'ccd.xml', page: null, quote: 'Asthma' }],
        },
      ],
    };
    const result = await engine().read([structured]);
    expect(ai.requests).toHaveLength(0);
    expect(result.facts).toEqual([{ ...structured.facts[0], recorded: '2023-05-01' }]);
  });

  it('logs counts, ids and timings only: no page text, quote or fact', async () => {
    const lines: string[] = [];
    const logger: SummaryLogger = {
      info: (data, message) => lines.push(JSON.stringify({ data, message })),
      warn: (data, message) => lines.push(JSON.stringify({ data, message })),
    };
    // The SDK's own debug log would print request bodies: it must stay off even when asked for.
    const printed: string[] = [];
    const consoleSpies = (['log', 'info', 'warn', 'error', 'debug'] as const).map((level) =>
      jest
        .spyOn(console, level)
        .mockImplementation(
          (...args: unknown[]) =>
            void printed.push(args.map((a) => (typeof a === 'string' ? a : inspect(a, { depth: 10 }))).join(' ')),
        ),
    );
    process.env['OPENAI_LOG'] = 'debug';
    try {
      ai.reply(
        { content: '{"facts": "Metformin"' },
        { answer: { ...GOOD, facts: [...GOOD.facts, fact({ text: 'Gout', citation: { page: 1, quote: 'Gout' } })] } },
      );
      const result = await engine({ logger }).read([input()]);
      expect(result.droppedUnsupported).toBe(1);
    } finally {
      delete process.env['OPENAI_LOG'];
      consoleSpies.forEach((spy) => spy.mockRestore());
    }
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(lines.join('\n')).toContain('doc-7');
    const output = [...lines, ...printed].join('\n').toLowerCase();
    for (const secret of ['diabetes', 'metformin', 'lisinopril', 'hypertension', 'allergies', 'gout', 'clinic note']) {
      expect(output).not.toContain(secret);
    }
  });
});

describe('createSummaryEngine', () => {
  it('makes the engine the settings name', () => {
    expect(createSummaryEngine({ engine: 'local' }).name).toBe('local');
    expect(
      createSummaryEngine({ engine: 'openai', openai: { apiKey: 'k', baseURL: 'http://127.0.0.1:1/v1' } }).name,
    ).toBe('openai');
  });

  it('refuses openai without an API key, saying what to set', () => {
    expect(() => createSummaryEngine({ engine: 'openai' })).toThrow(/OPENAI_API_KEY/);
  });
});
