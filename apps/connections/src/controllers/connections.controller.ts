import { Inject } from '@nestjs/common';
import { Payload } from '@nestjs/microservices';
import {
  type AuthorizeReply,
  type CallerIdentity,
  CompleteConnectionDto,
  ConnectionIdDto,
  CONNECTIONS_SUBJECTS,
  type ConnectionView,
  type DeletedReply,
  type EndpointView,
  type JwksReply,
  SearchEndpointsDto,
  StartConnectionDto,
} from '@medfolio/contracts';
import { Caller, Handles, RpcController } from '@medfolio/messaging';
import { ClientAuthService } from '../services/client-auth.service';
import { ConnectionsService } from '../services/connections.service';

/** Request/reply handlers: thin, each hands the validated payload and the caller to the service. */
@RpcController()
export class ConnectionsController {
  constructor(
    @Inject(ConnectionsService) private readonly service: ConnectionsService,
    @Inject(ClientAuthService) private readonly clients: ClientAuthService,
  ) {}

  @Handles(CONNECTIONS_SUBJECTS.searchEndpoints)
  async searchEndpoints(@Payload() dto: SearchEndpointsDto, @Caller() caller: CallerIdentity): Promise<EndpointView[]> {
    return this.service.searchEndpoints(caller, dto);
  }

  @Handles(CONNECTIONS_SUBJECTS.start)
  start(@Payload() dto: StartConnectionDto, @Caller() caller: CallerIdentity): Promise<AuthorizeReply> {
    return this.service.start(caller, dto);
  }

  @Handles(CONNECTIONS_SUBJECTS.complete)
  complete(@Payload() dto: CompleteConnectionDto, @Caller() caller: CallerIdentity): Promise<ConnectionView> {
    return this.service.complete(caller, dto);
  }

  @Handles(CONNECTIONS_SUBJECTS.list)
  list(@Caller() caller: CallerIdentity): Promise<ConnectionView[]> {
    return this.service.list(caller);
  }

  @Handles(CONNECTIONS_SUBJECTS.sync)
  sync(@Payload() dto: ConnectionIdDto, @Caller() caller: CallerIdentity): Promise<ConnectionView> {
    return this.service.requestSync(caller, dto.connection_id);
  }

  /** Public: the keys EHRs verify the product's private_key_jwt assertions with (no caller needed, no health data). */
  @Handles(CONNECTIONS_SUBJECTS.jwks)
  jwks(): JwksReply {
    return this.clients.jwks();
  }

  @Handles(CONNECTIONS_SUBJECTS.remove)
  remove(@Payload() dto: ConnectionIdDto, @Caller() caller: CallerIdentity): Promise<DeletedReply> {
    return this.service.remove(caller, dto.connection_id);
  }
}
