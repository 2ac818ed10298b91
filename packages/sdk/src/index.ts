import createClient, { type ClientOptions } from 'openapi-fetch';
import type { paths } from './schema';

export type { components, operations, paths } from './schema';

export interface CfdiClientOptions extends Omit<ClientOptions, 'baseUrl'> {
  /** Where the API listens, without `/v1` (e.g. `http://127.0.0.1:3000`). */
  baseUrl: string;
  /** `sk_test_…` or `sk_live_…`. */
  apiKey: string;
}

/**
 * A typed client of the REST API (openapi-fetch over the types generated from openapi.json): paths, parameters,
 * bodies and answers, problem responses included, are checked by the compiler.
 *
 *   const cfdi = createCfdiClient({ baseUrl, apiKey });
 *   const { data, error } = await cfdi.POST('/v1/invoices', { params: { header: { 'Idempotency-Key': key } }, body });
 */
export function createCfdiClient({ baseUrl, apiKey, headers, ...options }: CfdiClientOptions) {
  return createClient<paths>({ ...options, baseUrl, headers: { ...headers, authorization: `Bearer ${apiKey}` } });
}

export type CfdiClient = ReturnType<typeof createCfdiClient>;
