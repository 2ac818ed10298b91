import type { TObject } from '@sinclair/typebox';
import type { ListAnswer, RecordContext, Scope } from '@cfdi/services';
import type { FaceTexts } from '../kinds/declaration';

/** What a record's services do, with the verbs every record has (Stripe's: create, retrieve, update, del, list). */
export interface RecordServices<View> {
  create(ctx: RecordContext, scope: Scope, body: never, idempotencyKey?: string): Promise<View>;
  retrieve(ctx: RecordContext, scope: Scope, id: string): Promise<View>;
  update?(ctx: RecordContext, scope: Scope, id: string, body: never): Promise<View>;
  del?(ctx: RecordContext, scope: Scope, id: string): Promise<{ id: string; object: string; deleted: true }>;
  list(ctx: RecordContext, scope: Scope, query: never): Promise<ListAnswer<View>>;
}

/** What a record's context holds: the database, the catalogs, and the portal a receipt's URL points at. */
export type RecordCallContext = RecordContext & { portalUrl: string };

/** A verb on one record besides the CRUD ones: `POST {path}/{id}/{verb}` and its tool (a receipt's cancel). */
export interface RecordAction<View> extends FaceTexts {
  verb: string;
  run(ctx: RecordCallContext, scope: Scope, id: string): Promise<View>;
  /** Statuses it may answer besides 404 (a receipt no longer open: 409). */
  conflicts: number[];
}

/**
 * A saved record (customers, products, receipts) declared once: its REST CRUD routes (./routes.ts), its MCP tools (./tools.ts)
 * and so the OpenAPI document and the SDK are made from this.
 */
export interface RecordResource<View = unknown> {
  /** `/customers`: the list and create path; `/customers/:id` reads, updates and deletes one. */
  path: string;
  tag: string;
  object: 'customer' | 'product' | 'receipt';
  schema: TObject;
  createBody: TObject;
  /** Absent: the record is never edited nor deleted (a receipt is cancelled instead, see actions). */
  updateBody?: TObject;
  listQuery: TObject;
  deleted?: TObject;
  /**
   * A create takes an Idempotency-Key (REST header, `idempotency_key` tool argument) and its service gets it, to
   * attach the record to the key in the transaction that stores it, so a retry answers the same record.
   */
  idempotentCreate?: boolean;
  actions?: RecordAction<View>[];
  services: RecordServices<View>;
  /** Statuses a create or an update may answer besides 400, 403 and 404 (a product's 409 on its SKU). */
  conflicts?: number[];
  create: FaceTexts;
  retrieve: FaceTexts;
  update?: FaceTexts;
  list: FaceTexts;
  /** No tool: deleting is left to REST, the console and people. */
  del?: Omit<FaceTexts, 'tool'>;
  /** One line about a record, for a model to read. */
  line(view: View): string;
}
