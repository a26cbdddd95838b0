export * from './event-bus';
export { EventsModule, type EventsModuleOptions } from './events.module';
export { InProcessEventBus, type InProcessEventBusOptions } from './in-process-event-bus';
export { JetStreamEventBus, NatsUnavailableError, type JetStreamEventBusOptions } from './jetstream-event-bus';
export { OnEvent, type OnEventOptions } from './on-event.decorator';
