import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { OcrScheduler } from './ocr';
import { pngOfText, tempFiles } from './testing/builders';

const REPO = join(__dirname, '../../../..');

describe('OCR', () => {
  const files = tempFiles();
  afterAll(() => files.cleanup());

  /**
   * Runs the child with HTTP_PROXY/HTTPS_PROXY pointing at a recorder on loopback and
   * NODE_USE_ENV_PROXY=1, so every outside request it makes, from any thread, lands there.
   */
  async function offline(
    image: string,
  ): Promise<{ status: number | null; stdout: string; stderr: string; requests: string[] }> {
    const requests: string[] = [];
    const recorder = createServer((req, res) => {
      requests.push(`GET ${req.url ?? ''}`);
      res.statusCode = 403;
      res.end();
    });
    recorder.on('connect', (req: { url?: string }, socket: { destroy(): void }) => {
      requests.push(`CONNECT ${req.url ?? ''}`);
      socket.destroy();
    });
    await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
    const proxy = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}`;
    try {
      const child = spawn(
        process.execPath,
        ['-r', '@swc-node/register', join(__dirname, 'testing/ocr-offline-child.ts'), image],
        {
          cwd: REPO,
          env: {
            ...process.env,
            NODE_OPTIONS: '',
            NODE_USE_ENV_PROXY: '1',
            HTTP_PROXY: proxy,
            HTTPS_PROXY: proxy,
            NO_PROXY: '',
          },
          stdio: ['ignore', 'pipe', 'pipe'],
          // A child stuck on a refused download is ended before the test's own timeout.
          timeout: 120_000,
        },
      );
      let stdout = '';
      let stderr = '';
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const [status] = (await once(child, 'close')) as [number | null];
      return { status, stdout, stderr, requests };
    } finally {
      recorder.close();
    }
  }

  it('reads printed text with the shipped English model, making no outside request', async () => {
    const image = files.write(
      'letter.png',
      await pngOfText(['Allergy: penicillin', 'Reaction: rash'], { width: 1200, height: 500 }, 40),
    );
    const run = await offline(image);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    // Only the child's own probe from a worker thread: the recorder sees worker traffic, and OCR
    // (which runs in worker threads) asked for nothing.
    const { probe, outcome } = JSON.parse(run.stdout) as {
      probe: string;
      outcome: { text: string; confidence: number; words: number };
    };
    expect(probe).toBe('403');
    expect(run.requests).toEqual(['GET http://example.org/probe']);
    expect(outcome.text).toMatch(/Allergy: penicillin/);
    expect(outcome.text).toMatch(/Reaction: rash/);
    expect(outcome.words).toBe(4);
    expect(outcome.confidence).toBeGreaterThan(80);
  }, 150_000);

  it('runs at most `concurrency` jobs at once and refuses work after shutdown', async () => {
    const ocr = new OcrScheduler({ concurrency: 2 });
    const image = await pngOfText(['Blood test results'], { width: 900, height: 300 }, 40);
    const spy = jest.spyOn(ocr as unknown as { startWorker: () => Promise<unknown> }, 'startWorker');
    const results = await Promise.all([1, 2, 3, 4].map(() => ocr.recognize(image)));
    expect(results.map((r) => r.text)).toEqual(Array(4).fill('Blood test results'));
    // Two workers started for four jobs: the other two waited and reused them.
    expect(spy).toHaveBeenCalledTimes(2);
    await ocr.shutdown();
    await expect(ocr.recognize(image)).rejects.toThrow('OCR has been shut down');
  }, 120_000);

  it('does not start a job whose signal is already aborted', async () => {
    const ocr = new OcrScheduler();
    const controller = new AbortController();
    controller.abort(new Error('stopped'));
    await expect(ocr.recognize(Buffer.alloc(1), controller.signal)).rejects.toThrow('stopped');
    await ocr.shutdown();
  });
});
