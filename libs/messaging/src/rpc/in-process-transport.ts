import { BaseRpcContext, ClientProxy, Server, type CustomTransportStrategy, type ReadPacket, type WritePacket } from '@nestjs/microservices';
import { isObservable, lastValueFrom, type Observable } from 'rxjs';
import { toHeaderRecord, type HeaderRecord } from './headers';

/**
 * The in-process request/reply transport of the embedded one-process mode. Same subjects,
 * same handler decorators (@MessagePattern), same headers and errors as NATS; messages are
 * JSON-copied both ways so no object is shared between caller and service, exactly as on the wire.
 */
type Handler = (data: unknown, context: InProcessContext) => Promise<unknown>;

/** Subject → handler, for everything served in this process. */
export class InProcessBroker {
  private static readonly handlers = new Map<string, Handler>();

  static register(subject: string, handler: Handler): void {
    if (InProcessBroker.handlers.has(subject)) {
      throw new Error(`In-process transport: two handlers for subject ${subject}`);
    }
    InProcessBroker.handlers.set(subject, handler);
  }

  static unregister(subject: string): void {
    InProcessBroker.handlers.delete(subject);
  }

  static find(subject: string): Handler | undefined {
    return InProcessBroker.handlers.get(subject);
  }
}

/** Handler context: the same two things NatsContext offers (subject and headers). */
export class InProcessContext extends BaseRpcContext<[string, HeaderLookup]> {
  getSubject(): string {
    return this.args[0];
  }
  getHeaders(): HeaderLookup {
    return this.args[1];
  }
}

/** The part of NATS' MsgHdrs that handlers use. */
export interface HeaderLookup {
  get(name: string): string;
}

function lookup(record: HeaderRecord): HeaderLookup {
  return { get: (name) => record[name.toLowerCase()] ?? '' };
}

const copy = <T>(value: T): T => (value === undefined ? value : (JSON.parse(JSON.stringify(value)) as T));

export class InProcessServer extends Server implements CustomTransportStrategy {
  private readonly subjects: string[] = [];

  listen(callback: () => void): void {
    for (const [subject, handler] of this.messageHandlers) {
      if (handler.isEventHandler) continue;
      InProcessBroker.register(subject, async (data, context) => {
        const result = await handler(data, context);
        const stream = isObservable(result) ? (result as Observable<unknown>) : this.transformToObservable(result);
        return lastValueFrom(stream, { defaultValue: undefined });
      });
      this.subjects.push(subject);
    }
    callback();
  }

  close(): void {
    for (const subject of this.subjects.splice(0)) InProcessBroker.unregister(subject);
  }

  on(): void {
    throw new Error('InProcessServer has no events to listen to');
  }

  unwrap<T>(): T {
    throw new Error('InProcessServer wraps no client');
  }
}

export class InProcessClient extends ClientProxy {
  async connect(): Promise<void> {
    return undefined;
  }

  close(): void {
    return undefined;
  }

  override on(): void {
    throw new Error('InProcessClient has no events to listen to');
  }

  unwrap<T>(): T {
    throw new Error('InProcessClient wraps no connection');
  }

  protected publish(packet: ReadPacket, callback: (packet: WritePacket) => void): () => void {
    const subject = this.normalizePattern(packet.pattern);
    const { data, headers } = unwrapRecord(packet.data);
    const handler = InProcessBroker.find(subject);
    let cancelled = false;
    if (!handler) {
      // What NATS answers when nobody subscribes: "no responders".
      queueMicrotask(() => callback({ err: { code: 'UNAVAILABLE', message: 'Service unavailable' }, isDisposed: true }));
      return () => undefined;
    }
    handler(copy(data), new InProcessContext([subject, lookup(headers)])).then(
      (response) => !cancelled && callback({ response: copy(response), isDisposed: true }),
      (err: unknown) => !cancelled && callback({ err: copy(err), isDisposed: true }),
    );
    return () => {
      cancelled = true;
    };
  }

  protected async dispatchEvent<T = unknown>(): Promise<T> {
    throw new Error('Fire-and-forget events go through the EventBus (JetStream), not request/reply');
  }
}

/** A packet's data may be a NatsRecord-like { data, headers } built by RpcClient. */
function unwrapRecord(value: unknown): { data: unknown; headers: HeaderRecord } {
  if (value && typeof value === 'object' && 'data' in value && 'headers' in value) {
    const record = value as { data: unknown; headers: unknown };
    return { data: record.data, headers: toHeaderRecord(record.headers) };
  }
  return { data: value, headers: {} };
}
