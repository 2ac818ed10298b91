export { buildApp, type BuildAppOptions } from './app';
export type { AppDeps } from './deps';
export { openapiDocument } from './openapi-document';
export { NOMINA_RECEIPT } from './openapi-examples';
