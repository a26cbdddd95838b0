import { MessagePattern } from '@nestjs/microservices';
import type { NoPayload, RpcReply, RpcRequest, RpcSubject } from '@medfolio/contracts';

type Answer<S extends RpcSubject> = RpcReply<S> | Promise<RpcReply<S>>;

/**
 * What a handler of `S` may look like: it answers the contract's reply, and takes the contract's
 * payload as its first parameter (a subject without payload lets the handler take only `@Caller()`).
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type RpcHandlerFor<S extends RpcSubject> = [RpcRequest<S>] extends [NoPayload] ? (...args: any[]) => Answer<S> : (payload: RpcRequest<S>, ...rest: any[]) => Answer<S>;

/**
 * `@Handles(SUBJECT)`: Nest's `@MessagePattern`, checked against the contract map at compile time,
 * so a handler that takes or answers something else than the caller sends does not build.
 */
export function Handles<S extends RpcSubject>(subject: S) {
  return <H extends RpcHandlerFor<S>>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<H>): void => {
    MessagePattern(subject)(target, key, descriptor);
  };
}
