// The `openai` summary engine: an OpenAI-compatible chat model reads the text of each document,
// chunk by chunk, with structured output; every fact it returns is checked against its cited page.
import OpenAI from 'openai';
import type { ClinicalFact, EngineInput, ExtractionProblem, NoneKnown, SummaryEngine } from '../../model';
import { headerDate } from '../text';
import { chunkDocument, describeChunk, SYSTEM_PROMPT, type Chunk } from './prompt';
import { ChunkAnswer, CHUNK_RESPONSE_FORMAT } from './schema';
import { verifyFact, verifyNoneKnown } from './verify';

/** pino's call shape (object first). Only counts, ids and timings are ever passed. */
export interface SummaryLogger {
  info(data: Record<string, unknown>, message: string): void;
  warn(data: Record<string, unknown>, message: string): void;
}

export interface OpenAiEngineOptions {
  apiKey: string;
  /** Any OpenAI-compatible server ("http://127.0.0.1:8080/v1"); default: OpenAI's. */
  baseURL?: string;
  model?: string;
  /** Time limit of one HTTP call (the SDK retries a call that runs out). */
  timeoutMs?: number;
  /** Retries of one call on 429, 5xx, timeouts and lost connections, with backoff (the SDK's). */
  maxRetries?: number;
  /** Most characters of page text in one call. */
  chunkChars?: number;
  /** Sampling temperature; null sends none (reasoning models refuse the parameter). Default 0, for repeatable answers. */
  temperature?: number | null;
  /** Calls in flight at once. */
  concurrency?: number;
  logger?: SummaryLogger;
}

export const OPENAI_ENGINE_DEFAULTS = {
  model: 'gpt-4o-mini',
  timeoutMs: 60_000,
  maxRetries: 3,
  chunkChars: 12_000,
  concurrency: 2,
} as const;

export interface OpenAiReadResult {
  facts: ClinicalFact[];
  noneKnown: NoneKnown[];
  droppedUnsupported: number;
  /** Chunks whose answer could not be used, in words the patient can read. */
  problems: ExtractionProblem[];
}

type ChunkOutcome =
  { ok: true; answer: ChunkAnswer } | { ok: false; reason: 'unusable' | 'timeout' | 'failed'; detail: string };

const SILENT_LOGGER: SummaryLogger = { info: () => undefined, warn: () => undefined };

export class OpenAiEngine implements SummaryEngine {
  readonly name = 'openai' as const;
  private readonly client: OpenAI;
  private readonly model: string;
  private readonly chunkChars: number;
  private readonly concurrency: number;
  private readonly timeoutMs: number;
  private readonly temperature: number | null;
  private readonly logger: SummaryLogger;

  constructor(options: OpenAiEngineOptions) {
    if (!options.apiKey) throw new Error('The openai summary engine needs an API key (OPENAI_API_KEY).');
    this.model = options.model ?? OPENAI_ENGINE_DEFAULTS.model;
    this.chunkChars = options.chunkChars ?? OPENAI_ENGINE_DEFAULTS.chunkChars;
    this.concurrency = Math.max(1, options.concurrency ?? OPENAI_ENGINE_DEFAULTS.concurrency);
    this.logger = options.logger ?? SILENT_LOGGER;
    this.timeoutMs = options.timeoutMs ?? OPENAI_ENGINE_DEFAULTS.timeoutMs;
    this.temperature = options.temperature === undefined ? 0 : options.temperature;
    this.client = new OpenAI({
      apiKey: options.apiKey,
      ...(options.baseURL ? { baseURL: options.baseURL } : {}),
      timeout: this.timeoutMs,
      maxRetries: options.maxRetries ?? OPENAI_ENGINE_DEFAULTS.maxRetries,
      // The SDK's own log describes requests; it stays off whatever OPENAI_LOG says, so no SDK version
      // can print the patient's pages. Our logger gets counts, ids and timings only.
      logLevel: 'off',
    });
  }

  async read(inputs: EngineInput[], signal?: AbortSignal): Promise<OpenAiReadResult> {
    const facts: ClinicalFact[] = [];
    const noneKnown: NoneKnown[] = [];
    const problems: ExtractionProblem[] = [];
    let droppedUnsupported = 0;

    // Structured documents (C-CDA, FHIR) pass through as extraction read them; their text is not sent.
    const work: { input: EngineInput; recorded: string; chunk: Chunk }[] = [];
    for (const input of inputs) {
      const recorded = documentDate(input);
      for (const fact of input.facts) facts.push({ ...fact, recorded: fact.recorded ?? recorded });
      for (const none of input.noneKnown) noneKnown.push({ ...none, recorded: none.recorded ?? recorded });
      if (input.facts.length || input.noneKnown.length) continue;
      for (const chunk of chunkDocument(input, this.chunkChars)) work.push({ input, recorded, chunk });
    }

    const started = performance.now();
    const outcomes = await mapLimited(work, this.concurrency, (item) => this.askChunk(item.chunk, signal));
    work.forEach(({ input, recorded, chunk }, i) => {
      const outcome = outcomes[i];
      if (!outcome) return;
      const where = describeChunk(chunk, input.filename);
      if (!outcome.ok) {
        problems.push({
          filename: input.filename,
          reason:
            outcome.reason === 'timeout'
              ? `The summary model did not answer in time for ${where}; it is left out of the summary.`
              : `The summary model's answer for ${where} could not be used; it is left out of the summary.`,
        });
        return;
      }
      const ctx = { documentId: input.documentId, pages: chunk.pages, recorded };
      let dropped = 0;
      for (const fact of outcome.answer.facts) {
        const kept = verifyFact(ctx, fact);
        if (kept) facts.push(kept);
        else dropped++;
      }
      for (const statement of outcome.answer.noneKnown) {
        const kept = verifyNoneKnown(ctx, statement);
        if (kept) noneKnown.push(kept);
        else dropped++;
      }
      droppedUnsupported += dropped;
      this.logger.info(
        {
          documentId: input.documentId,
          pages: chunk.pages.length,
          returned: outcome.answer.facts.length + outcome.answer.noneKnown.length,
          dropped,
        },
        'summary model chunk checked',
      );
    });
    this.logger.info(
      {
        documents: inputs.length,
        chunks: work.length,
        facts: facts.length,
        droppedUnsupported,
        problems: problems.length,
        ms: Math.round(performance.now() - started),
      },
      'summary model read done',
    );
    return { facts, noneKnown, droppedUnsupported, problems };
  }

  /** One chunk: the SDK retries 429/5xx/timeouts itself; an answer that is not valid JSON of the schema is asked for once more. */
  private async askChunk(chunk: Chunk, signal?: AbortSignal): Promise<ChunkOutcome> {
    let last: ChunkOutcome = { ok: false, reason: 'failed', detail: 'not asked' };
    for (let attempt = 1; attempt <= 2; attempt++) {
      const started = performance.now();
      const log = { documentId: chunk.documentId, pages: chunk.pages.length, chars: chunk.content.length, attempt };
      try {
        const completion = await this.client.chat.completions.create(
          {
            model: this.model,
            ...(this.temperature === null ? {} : { temperature: this.temperature }),
            response_format: CHUNK_RESPONSE_FORMAT,
            messages: [
              { role: 'system', content: SYSTEM_PROMPT },
              { role: 'user', content: chunk.content },
            ],
          },
          { signal },
        );
        const ms = Math.round(performance.now() - started);
        const choice = completion.choices[0];
        const answer = choice?.finish_reason === 'stop' ? parseAnswer(choice.message.content) : null;
        if (answer) {
          this.logger.info({ ...log, ms, facts: answer.facts.length }, 'summary model answered');
          return { ok: true, answer };
        }
        // Only the shape of the failure is logged, never the answer (it holds health data).
        const detail = choice?.message.refusal
          ? 'refusal'
          : `finish ${choice?.finish_reason ?? 'none'}, invalid answer`;
        this.logger.warn({ ...log, ms, detail }, 'summary model answer unusable');
        last = { ok: false, reason: 'unusable', detail };
        if (choice?.message.refusal) break;
      } catch (error) {
        if (signal?.aborted) throw error;
        const ms = Math.round(performance.now() - started);
        // Under some runtimes (Jest's VM) the SDK sees its own time limit's abort as a plain connection
        // error; the elapsed time tells them apart.
        const timeout =
          error instanceof OpenAI.APIConnectionTimeoutError ||
          (error instanceof OpenAI.APIConnectionError && ms >= this.timeoutMs);
        const status = error instanceof OpenAI.APIError ? error.status : undefined;
        this.logger.warn({ ...log, ms, status, timeout }, 'summary model call failed');
        // The SDK has already retried what is worth retrying.
        return { ok: false, reason: timeout ? 'timeout' : 'failed', detail: String(status ?? error) };
      }
    }
    return last;
  }
}

function parseAnswer(content: string | null | undefined): ChunkAnswer | null {
  if (!content) return null;
  try {
    const parsed = ChunkAnswer.safeParse(JSON.parse(content));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** The date facts are recorded on, as the local engine reads it. */
function documentDate(input: EngineInput): string {
  const lines = input.texts.flatMap((t) => t.text.split(/\r?\n|\f/));
  return input.documentDate ?? headerDate(lines) ?? input.uploadedAt.slice(0, 10);
}

/** `fn` over `items`, at most `limit` at once; results in the items' order. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
