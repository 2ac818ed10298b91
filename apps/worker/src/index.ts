export { createWorkerDeps } from './deps';
export { createWorker } from './worker';
