export { createWorkerDeps } from './deps';
export { createWorker, webhookDispatchInput } from './worker';
