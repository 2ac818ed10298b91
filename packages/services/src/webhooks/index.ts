export * from './event-types';
export * from './address-guard';
export * from './endpoint-url';
export * from './endpoints';
export * from './events';
export * from './attempts';
export * from './dispatch';
export * from './redeliver';
