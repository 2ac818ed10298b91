// Workflow-safe entry: names, update/signal definitions and types only. The client helpers are in ./client.
export * from './names';
export type * from './stamping';
export type * from './cancellation';
export type * from './webhooks';
export type * from './emails';
export type * from './global-invoices';
export type * from './activities';
export type * from './workflows';
