/**
 * A service process that dies at the worst moment, for the outbox crash tests
 * (outbox.int-spec.ts runs it with `node -r @swc-node/register`). Arguments:
 *   commit <schema> <subject>            commits a widget and its outbox row, says `committed <id>`,
 *                                        then waits to be killed before anything is published
 *   publish-then-die <schema> <natsUrl>  runs one relay batch and SIGKILLs itself right after the
 *                                        first publish is acked, before the row is marked published
 */
import 'reflect-metadata';
import type { EventBus } from '../../events/event-bus';
import { JetStreamEventBus } from '../../events/jetstream-event-bus';
import { Outbox } from '../outbox';
import { OutboxRelay } from '../outbox-relay';
import { testDataSource, Widget } from './test-database';

async function main(): Promise<void> {
  const [mode, schema, arg] = process.argv.slice(2);
  const dataSource = await testDataSource(schema).initialize();

  if (mode === 'commit') {
    const id = await dataSource.transaction(async (manager) => {
      await manager.insert(Widget, { id: 'crashed-widget', count: 1 });
      return Outbox.add(manager, arg, { widget: 'crashed-widget' });
    });
    process.stdout.write(`committed ${id}\n`);
    setInterval(() => undefined, 60_000);
    return;
  }

  if (mode === 'publish-then-die') {
    const bus = await JetStreamEventBus.connect({ connection: arg });
    const dying: EventBus = {
      ensureStream: (spec) => bus.ensureStream(spec),
      publish: async (subject, data, options) => {
        const ack = await bus.publish(subject, data, options);
        process.kill(process.pid, 'SIGKILL');
        return ack;
      },
      consume: (spec, handler) => bus.consume(spec, handler),
      tail: (spec, handler) => bus.tail(spec, handler),
      isHealthy: () => bus.isHealthy(),
      close: () => bus.close(),
    };
    await new OutboxRelay(dataSource, dying).publishBatch();
    throw new Error('still alive after publishing');
  }

  throw new Error(`unknown mode ${mode}`);
}

main().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.stack : String(err)}\n`);
  process.exit(1);
});
