import { applyDecorators, Controller, UseFilters, UsePipes } from '@nestjs/common';
import { RpcErrorFilter } from './rpc-exception.filter';
import { createValidationPipe } from './validation';

/** One pipe for every request/reply handler: it holds no state, so all controllers share it. */
const RPC_VALIDATION = createValidationPipe();

/**
 * A request/reply controller: every handler's payload is validated against its contract DTO (the
 * shared messages, unknown fields dropped) and whatever a handler throws leaves as the error
 * contract `{ code, message }`. One decorator, so no service wires these differently.
 * `@Caller()` and other custom parameters are not validated (ValidationPipe skips them).
 */
export function RpcController(): ClassDecorator {
  return applyDecorators(Controller(), UseFilters(RpcErrorFilter), UsePipes(RPC_VALIDATION));
}
