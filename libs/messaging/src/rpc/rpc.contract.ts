import { Module, type INestMicroservice } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { MessagePattern, Payload } from '@nestjs/microservices';
import { DomainError, type CallerIdentity } from '@medfolio/contracts';
import { IsString, MaxLength } from 'class-validator';
import { Caller } from './caller.decorator';
import { RpcController } from './rpc-controller';
import { createRpcClient, rpcServerStrategy, type RpcSettings } from './rpc-transport';
import type { RpcClient } from './rpc-client';

class EchoDto {
  @IsString()
  @MaxLength(10, { message: 'text must be at most 10 characters' })
  text!: string;
}

/**
 * One request/reply contract, run against every transport (in-process in unit tests, real NATS in
 * integration tests): payloads and replies, caller headers, typed errors, validation, time-outs and
 * "nobody is listening".
 */
export function describeRpcContract(name: string, settings: () => RpcSettings, prefix: string): void {
  const subject = (verb: string) => `${prefix}.echo.${verb}`;

  // The services' own decorator: its shared validation and error mapping are part of the contract.
  @RpcController()
  class EchoController {
    @MessagePattern(subject('say'))
    say(@Payload() body: EchoDto): { echoed: string } {
      return { echoed: body.text };
    }

    @MessagePattern(subject('whoami'))
    whoami(@Caller() caller: CallerIdentity): CallerIdentity {
      return caller;
    }

    @MessagePattern(subject('missing'))
    missing(): never {
      throw new DomainError('NOT_FOUND', 'Document not found');
    }

    @MessagePattern(subject('crash'))
    crash(): never {
      throw new Error('secret internal detail');
    }

    @MessagePattern(subject('slow'))
    async slow(): Promise<string> {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      return 'late';
    }
  }

  @Module({ controllers: [EchoController] })
  class EchoModule {}

  describe(`request/reply contract: ${name}`, () => {
    let service: INestMicroservice;
    let client: RpcClient;
    const caller: CallerIdentity = { userId: 'user-1', roles: ['patient'], correlationId: 'corr-123', ip: '127.0.0.1' };

    beforeAll(async () => {
      service = await NestFactory.createMicroservice(EchoModule, { ...rpcServerStrategy('echo', settings()), logger: false });
      await service.listen();
      client = createRpcClient('test', { ...settings(), timeoutMs: 500 });
    });

    afterAll(async () => {
      await client.close();
      await service.close();
    });

    it('answers with the handler result', async () => {
      await expect(client.sendUnchecked(subject('say'), { text: 'hello' }, caller)).resolves.toEqual({ echoed: 'hello' });
    });

    it('validates payloads for every handler of the controller, dropping unknown fields', async () => {
      await expect(client.sendUnchecked(subject('say'), { text: 'hi', extra: 'x' }, caller)).resolves.toEqual({ echoed: 'hi' });
      await expect(client.sendUnchecked(subject('say'), {}, caller)).rejects.toMatchObject({ code: 'VALIDATION_FAILED' });
    });

    it('carries the caller identity and correlation id in headers', async () => {
      await expect(client.sendUnchecked(subject('whoami'), {}, caller)).resolves.toEqual(caller);
    });

    it('returns typed domain errors', async () => {
      await expect(client.sendUnchecked(subject('missing'), {}, caller)).rejects.toMatchObject({
        code: 'NOT_FOUND',
        message: 'Document not found',
      });
    });

    it('turns validation failures into VALIDATION_FAILED with the message', async () => {
      await expect(client.sendUnchecked(subject('say'), { text: 'far too long text' }, caller)).rejects.toMatchObject({
        code: 'VALIDATION_FAILED',
        message: 'text must be at most 10 characters',
      });
    });

    it('hides unexpected errors behind INTERNAL', async () => {
      const error = await client.sendUnchecked(subject('crash'), {}, caller).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: 'INTERNAL' });
      expect(JSON.stringify(error)).not.toContain('secret internal detail');
    });

    it('times out a slow handler', async () => {
      await expect(client.sendUnchecked(subject('slow'), {}, caller)).rejects.toMatchObject({ code: 'UPSTREAM_TIMEOUT' });
    });

    it('answers UNAVAILABLE when nobody serves the subject', async () => {
      await expect(client.sendUnchecked(subject('nobody'), {}, caller)).rejects.toMatchObject({ code: 'UNAVAILABLE' });
    });
  });
}
