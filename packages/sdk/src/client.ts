import { createResources, type Resources } from './resources';
import { Transport, type RequestOptions, type TransportOptions } from './transport';

export type CfdiOptions = TransportOptions;

// The resources' types come from the generated `createResources`: the class declares them through this interface.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type, @typescript-eslint/no-unsafe-declaration-merging
export interface Cfdi extends Resources {}

/**
 * The API's client: `new Cfdi({ apiKey, baseUrl })`, then `cfdi.invoices.create(body)`, `cfdi.invoices.list()`,
 * `cfdi.invoices.retrieve(id)`, `cfdi.invoices.cancel(id, body)`… one resource per tag of the OpenAPI document.
 * Every POST carries an Idempotency-Key (yours through `options.idempotencyKey`, else a random one) that its retries
 * reuse; 429s, retryable 503s and network errors are retried with backoff, honouring `Retry-After`; a problem answer
 * throws `CfdiError`.
 */
// eslint-disable-next-line @typescript-eslint/no-unsafe-declaration-merging
export class Cfdi {
  private readonly transport: Transport;

  constructor(options: CfdiOptions) {
    this.transport = new Transport(options);
    Object.assign(this, createResources(this.transport));
  }

  /** The bytes behind a signed file URL the API returned (`files.xmlUrl`, `pdfUrl`, `zipUrl`, an acuse, a logo). */
  download(url: string, options?: RequestOptions): Promise<ArrayBuffer> {
    return this.transport.download(url, options);
  }
}
