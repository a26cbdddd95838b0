export * from './event-bus';
export { InvalidEventError } from './delivery-policy';
export { EventHandlersExplorer } from './event-handlers.explorer';
export { EventsModule, type EventsModuleOptions } from './events.module';
export { InProcessEventBus, type InProcessEventBusOptions } from './in-process-event-bus';
export { JetStreamEventBus, NatsUnavailableError, type JetStreamEventBusOptions } from './jetstream-event-bus';
export { PROCESSED_MESSAGES, type Once, type ProcessedMessageLog } from './once';
export { OnEvent, type EventPayloadClass, type OnEventOptions } from './on-event.decorator';
