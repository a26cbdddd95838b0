import { dirname, join } from 'node:path';
import { createWorker, OEM, PSM, type Worker } from 'tesseract.js';

/** What OCR read from one image. */
export interface OcrOutcome {
  text: string;
  /** Tesseract's mean confidence, 0-100. */
  confidence: number;
  words: number;
}

export interface OcrSchedulerOptions {
  /** Workers (each a worker thread with its own WebAssembly Tesseract). Default 1. */
  concurrency?: number;
  /** Folder holding eng.traineddata.gz; default: the copy shipped in @tesseract.js-data/eng. */
  langPath?: string;
}

/**
 * The English LSTM model shipped by @tesseract.js-data/eng (4.0.0_best_int, the one tesseract.js
 * itself would fetch for its default engine), read from node_modules: never a network fetch.
 */
export function shippedLangPath(): string {
  return join(dirname(require.resolve('@tesseract.js-data/eng/package.json')), '4.0.0_best_int');
}

interface Job {
  image: Buffer;
  signal: AbortSignal | undefined;
  resolve: (outcome: OcrOutcome) => void;
  reject: (error: unknown) => void;
}

/**
 * Runs OCR on tesseract.js workers (worker threads, so the event loop stays free), at most
 * `concurrency` at a time. Workers start on first use and stay for the next page; `shutdown()`
 * ends them and refuses queued work.
 */
export class OcrScheduler {
  private readonly concurrency: number;
  private readonly langPath: string;
  private readonly idle: Worker[] = [];
  private readonly all = new Set<Promise<Worker>>();
  private readonly queue: Job[] = [];
  private busy = 0;
  private closed = false;

  constructor(options: OcrSchedulerOptions = {}) {
    this.concurrency = Math.max(1, Math.floor(options.concurrency ?? 1));
    this.langPath = options.langPath ?? shippedLangPath();
  }

  recognize(image: Buffer, signal?: AbortSignal): Promise<OcrOutcome> {
    if (this.closed) return Promise.reject(new Error('OCR has been shut down'));
    if (signal?.aborted) return Promise.reject(signal.reason);
    return new Promise((resolve, reject) => {
      this.queue.push({ image, signal, resolve, reject });
      this.pump();
    });
  }

  async shutdown(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new Error('OCR has been shut down'));
    const workers = await Promise.allSettled([...this.all]);
    this.all.clear();
    this.idle.length = 0;
    await Promise.allSettled(workers.map((w) => (w.status === 'fulfilled' ? w.value.terminate() : undefined)));
  }

  private pump(): void {
    while (this.queue.length > 0 && this.busy < this.concurrency) {
      const job = this.queue.shift() as Job;
      if (job.signal?.aborted) {
        job.reject(job.signal.reason);
        continue;
      }
      this.busy++;
      void this.run(job).finally(() => {
        this.busy--;
        this.pump();
      });
    }
  }

  private async run(job: Job): Promise<void> {
    let worker: Worker | undefined;
    try {
      worker = this.idle.pop() ?? (await this.startWorker());
      const { data } = await worker.recognize(job.image);
      const text = data.text.trim();
      job.resolve({ text, confidence: data.confidence, words: text.split(/\s+/).filter((w) => /\w/.test(w)).length });
    } catch (error) {
      job.reject(error);
    } finally {
      if (worker) {
        if (this.closed) await worker.terminate().catch(() => undefined);
        else this.idle.push(worker);
      }
    }
  }

  private startWorker(): Promise<Worker> {
    const started = createWorker('eng', OEM.LSTM_ONLY, {
      langPath: this.langPath,
      gzip: true,
      // Read the model where it is; never write a cache copy (node_modules may be read-only).
      cacheMethod: 'none',
      // Worker errors come back as rejected jobs instead of crashing the process.
      errorHandler: () => undefined,
    }).then(async (worker) => {
      // Documents are pages of text: automatic page segmentation.
      // Scans and photos come at about 300 dpi; saying so keeps Tesseract from guessing (and printing it).
      await worker.setParameters({ tessedit_pageseg_mode: PSM.AUTO, user_defined_dpi: '300' });
      return worker;
    });
    this.all.add(started);
    return started;
  }
}
