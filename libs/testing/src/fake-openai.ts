import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** One chat completion request as the fake received it. */
export interface FakeOpenAiRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: {
    model?: string;
    messages?: { role: string; content: string }[];
    response_format?: { type: string; json_schema?: { name: string; strict?: boolean; schema: unknown } };
    [key: string]: unknown;
  };
  /** The user message (the pages sent), for convenience. */
  userContent: string;
}

/**
 * A scripted reply. `answer`: a completion whose message content is this value as JSON.
 * `content`: a completion with this raw content (malformed JSON, say). `delayMs` holds either back
 * (to make answers arrive out of order). `error`: an HTTP error with optional headers
 * (Retry-After). `hang`: the request is never answered (a timeout).
 */
export type FakeOpenAiReply =
  | { answer: unknown; finishReason?: string; delayMs?: number }
  | { content: string; finishReason?: string; delayMs?: number }
  | { error: number; headers?: Record<string, string> }
  | { hang: true };

/**
 * A local stand-in for an OpenAI-compatible server (POST /v1/chat/completions) on 127.0.0.1, for
 * tests of the summary engine: replies come from a queue (`reply(...)`), else from `respond`, and
 * every request is recorded. Only `node:` modules.
 *
 * ```ts
 * const ai = await FakeOpenAi.start();
 * ai.reply({ error: 429, headers: { 'retry-after': '0' } }, { answer: { facts: [], noneKnown: [] } });
 * new OpenAiEngine({ apiKey: 'test', baseURL: ai.baseURL });
 * ```
 */
export class FakeOpenAi {
  readonly requests: FakeOpenAiRequest[] = [];
  /** Used when the queue is empty; the default answers with no facts. */
  respond: (request: FakeOpenAiRequest) => FakeOpenAiReply = () => ({ answer: { facts: [], noneKnown: [] } });
  private readonly queue: FakeOpenAiReply[] = [];

  private constructor(
    private readonly server: Server,
    readonly baseURL: string,
  ) {}

  static async start(): Promise<FakeOpenAi> {
    const server = createServer();
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const fake = new FakeOpenAi(server, `http://127.0.0.1:${port}/v1`);
    server.on('request', (req, res) => void fake.handle(req, res));
    return fake;
  }

  /** Queues replies for the next requests, in order. */
  reply(...replies: FakeOpenAiReply[]): void {
    this.queue.push(...replies);
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
      res
        .writeHead(404, { 'content-type': 'application/json' })
        .end(JSON.stringify({ error: { message: 'not found' } }));
      return;
    }
    const body = JSON.parse(Buffer.concat(chunks).toString('utf8')) as FakeOpenAiRequest['body'];
    const userContent = body.messages?.find((m) => m.role === 'user')?.content ?? '';
    const request: FakeOpenAiRequest = { path: req.url, headers: req.headers, body, userContent };
    this.requests.push(request);
    const reply = this.queue.shift() ?? this.respond(request);
    if ('hang' in reply) return;
    if ('error' in reply) {
      res
        .writeHead(reply.error, { 'content-type': 'application/json', ...reply.headers })
        .end(JSON.stringify({ error: { message: `fake error ${reply.error}`, type: 'fake', code: null } }));
      return;
    }
    const content = 'answer' in reply ? JSON.stringify(reply.answer) : reply.content;
    if (reply.delayMs) await new Promise((resolve) => setTimeout(resolve, reply.delayMs));
    res.writeHead(200, { 'content-type': 'application/json' }).end(
      JSON.stringify({
        id: `chatcmpl-fake-${this.requests.length}`,
        object: 'chat.completion',
        created: Math.floor(Date.now() / 1000),
        model: body.model ?? 'fake',
        choices: [
          {
            index: 0,
            message: { role: 'assistant', content, refusal: null },
            finish_reason: reply.finishReason ?? 'stop',
            logprobs: null,
          },
        ],
        usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
      }),
    );
  }
}
