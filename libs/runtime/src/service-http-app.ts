import type { DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';

/**
 * A service's HTTP application: health, metrics and internal routes. Bodies of type
 * application/octet-stream, image/* or multipart/form-data are handed to the route as a stream
 * (uploads stream through, never buffered whole; the route parses multipart itself). While it
 * closes, a request on a kept-alive connection (the gateway's upload agent) is still served, with
 * Connection: close, instead of Fastify's default 503.
 */
export async function createServiceHttpApp(module: DynamicModule): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(module, new FastifyAdapter({ return503OnClosing: false }), { bufferLogs: true });
  app.useLogger(app.get(Logger));
  const fastify = app.getHttpAdapter().getInstance();
  const passThrough = (_request: unknown, payload: unknown, done: (err: null, body: unknown) => void) => done(null, payload);
  fastify.addContentTypeParser('application/octet-stream', passThrough);
  fastify.addContentTypeParser(/^image\//, passThrough);
  fastify.addContentTypeParser('multipart/form-data', passThrough);
  return app;
}
