import { createParamDecorator, type ExecutionContext } from '@nestjs/common';
import { callerFromHeaders } from './headers';

/**
 * `@Caller() caller: CallerIdentity` in a @MessagePattern handler: who is asking, read from the
 * message headers the gateway set (works on NATS and in-process alike).
 */
export const Caller = createParamDecorator((_: unknown, ctx: ExecutionContext) => {
  const context = ctx.switchToRpc().getContext<{ getHeaders?: () => { get(name: string): string } | undefined }>();
  const headers = context.getHeaders?.();
  return callerFromHeaders((name) => headers?.get(name) || undefined);
});
