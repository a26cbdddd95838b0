import type { AppMetrics } from './metrics';

interface TimedRequest {
  method: string;
  routeOptions?: { url?: string };
}
interface TimedReply {
  statusCode: number;
  elapsedTime: number;
}
interface HookHost {
  addHook(name: 'onResponse', hook: (request: TimedRequest, reply: TimedReply) => Promise<void>): unknown;
}

/**
 * Records http_request_duration_seconds for every response, labelled by the route pattern
 * (e.g. /api/history), never by the raw URL: identifiers in paths must not become label values.
 */
export function recordHttpMetrics(fastify: HookHost, metrics: AppMetrics): void {
  fastify.addHook('onResponse', async (request, reply) => {
    const route = request.routeOptions?.url ?? 'unmatched';
    metrics.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}
