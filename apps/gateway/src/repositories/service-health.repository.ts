import { randomUUID } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import { SUBJECTS, type ServiceName } from '@medfolio/contracts';
import type { RpcClient } from '@medfolio/messaging';
import type { ReadinessReport } from '@medfolio/observability';
import { RPC_CLIENT } from './rpc-client.token';

/** Asks a service for its readiness over request/reply (`<service>.health.check`). */
@Injectable()
export class ServiceHealthRepository {
  constructor(@Inject(RPC_CLIENT) private readonly rpc: RpcClient) {}

  async readiness(service: ServiceName): Promise<ReadinessReport> {
    try {
      // Readiness wants "unavailable" at once, not after the no-responders retries of a user's call.
      return await this.rpc.send(SUBJECTS.health(service), {}, { roles: ['system'], correlationId: randomUUID() }, { retryNoResponders: false });
    } catch {
      return { status: 'unavailable', checks: { reachable: 'down' } };
    }
  }

  messagingHealthy(): Promise<boolean> {
    return this.rpc.isHealthy();
  }
}
