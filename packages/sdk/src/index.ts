export { Cfdi, type CfdiOptions } from './client';
export { CfdiConnectionError, CfdiError, type Problem } from './errors';
export { PagedList, type Body, type Item, type Query, type RequestOptions, type Result } from './transport';
export type { Resources } from './resources';
export type { components, operations, paths } from './schema';
export type * from './models';
// Webhook signatures, bundled into this package's build (no dependency to install).
export {
  EVENT_ID_HEADER,
  SIGNATURE_HEADER,
  signWebhook,
  verifyWebhook,
  WebhookVerificationError,
} from '@cfdi/webhook-verify';
