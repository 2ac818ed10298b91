import { checkProductRecord } from '@cfdi/cfdi';
import { newId, type EntityManager } from '@cfdi/db';
import { Conditions, listAnswer, type ListAnswer, type PageRequest, type RowCount } from '../pagination';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import type { RecordContext } from './customers';
import {
  assertMayCreate,
  containing,
  deleteRecord,
  FieldConflictError,
  findRecord,
  insertRecord,
  countRecords,
  listRecords,
  rejectIssues,
  updateRecord,
  type RecordTable,
} from './record-store';

/** POST /v1/products after schema validation: an item's keys, text, price and taxes, saved. */
export interface ProductCreate {
  description: string;
  productCode: string;
  unitCode: string;
  unitName?: string | null;
  price: number;
  /** Whether `price` includes the item's taxes; default true, like an invoice's `pricesIncludeTax`. */
  pricesIncludeTax?: boolean;
  /** false: IVA exento; default true. */
  taxable?: boolean;
  /** 0, 0.08 or 0.16; default 0.16. */
  ivaRate?: number;
  iepsRate?: number | null;
  /** Unique among the account and mode's products; the items' NoIdentificacion. */
  sku?: string | null;
}

export type ProductUpdate = Partial<ProductCreate>;

export interface ProductView {
  id: string;
  object: 'product';
  livemode: boolean;
  description: string;
  productCode: string;
  unitCode: string;
  unitName: string | null;
  price: number;
  pricesIncludeTax: boolean;
  taxable: boolean;
  ivaRate: number;
  iepsRate: number | null;
  sku: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ProductRow {
  id: string;
  livemode: boolean;
  description: string;
  product_code: string;
  unit_code: string;
  unit_name: string | null;
  price: string;
  prices_include_tax: boolean;
  taxable: boolean;
  iva_rate: string;
  ieps_rate: string | null;
  sku: string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

const PRODUCTS: RecordTable = { table: 'products', noun: 'product' };
const DEFAULTS = { pricesIncludeTax: true, taxable: true, ivaRate: 0.16 } as const;

export function toProductView(row: ProductRow): ProductView {
  return {
    id: row.id,
    object: 'product',
    livemode: row.livemode,
    description: row.description,
    productCode: row.product_code,
    unitCode: row.unit_code,
    unitName: row.unit_name,
    price: Number(row.price),
    pricesIncludeTax: row.prices_include_tax,
    taxable: row.taxable,
    ivaRate: Number(row.iva_rate),
    iepsRate: row.ieps_rate === null ? null : Number(row.ieps_rate),
    sku: row.sku,
    createdAt: isoTimestamp(row.created_at),
    updatedAt: isoTimestamp(row.updated_at),
  };
}

function columnsOf(input: ProductUpdate): Record<string, unknown> {
  const columns: Record<string, unknown> = {
    description: input.description,
    product_code: input.productCode,
    unit_code: input.unitCode,
    unit_name: input.unitName,
    price: input.price,
    prices_include_tax: input.pricesIncludeTax,
    taxable: input.taxable,
    iva_rate: input.ivaRate,
    ieps_rate: input.iepsRate,
    sku: input.sku,
  };
  return Object.fromEntries(Object.entries(columns).filter(([, value]) => value !== undefined));
}

/** The item rules on the product as it will be saved; the product and unit keys need the imported catalogs. */
async function checkProduct(ctx: RecordContext, product: ProductCreate): Promise<void> {
  await ctx.catalogs.index();
  rejectIssues('product', checkProductRecord(product, ctx.catalogs.lookup));
}

const skuTaken = (sku: string) =>
  new FieldConflictError(
    'sku_already_exists',
    '/sku',
    `another product of this account and mode has the SKU "${sku}"; SKUs name one product each`,
  );

/**
 * A SKU names one live product: checked first for a clear answer, and by the unique index for two saves racing
 * (the loser's statement fails and is answered the same way).
 */
async function saveUniqueSku<T>(
  em: EntityManager,
  scope: Scope,
  sku: string | null | undefined,
  id: string,
  save: () => Promise<T>,
): Promise<T> {
  if (sku) {
    const taken: unknown[] = await em.execute(
      'select 1 from products where account_id = ? and livemode = ? and sku = ? and id <> ? and deleted_at is null',
      [scope.accountId, scope.livemode, sku, id],
    );
    if (taken.length) throw skuTaken(sku);
  }
  try {
    return await save();
  } catch (error) {
    if (sku && (error as { code?: string }).code === '23505') throw skuTaken(sku);
    throw error;
  }
}

export async function createProduct(
  ctx: RecordContext,
  scope: Scope,
  input: ProductCreate,
): Promise<ProductView> {
  assertMayCreate(scope, 'products');
  const product = { ...DEFAULTS, ...input };
  await checkProduct(ctx, product);
  const id = newId('prod');
  const row = await saveUniqueSku(ctx.em, scope, input.sku, id, () =>
    insertRecord<ProductRow>(ctx.em, scope, PRODUCTS, id, columnsOf(product)),
  );
  return toProductView(row);
}

/** The live product of the scope as a row (404 otherwise): for items made from it. */
export const findProduct = (em: EntityManager, scope: Scope, id: string) =>
  findRecord<ProductRow>(em, scope, PRODUCTS, id);

export async function retrieveProduct(ctx: RecordContext, scope: Scope, id: string): Promise<ProductView> {
  return toProductView(await findProduct(ctx.em, scope, id));
}

export async function updateProduct(
  ctx: RecordContext,
  scope: Scope,
  id: string,
  input: ProductUpdate,
): Promise<ProductView> {
  const current = toProductView(await findProduct(ctx.em, scope, id));
  await checkProduct(ctx, { ...current, ...input });
  const row = await saveUniqueSku(ctx.em, scope, input.sku, id, () =>
    updateRecord<ProductRow>(ctx.em, scope, PRODUCTS, id, columnsOf(input)),
  );
  return toProductView(row);
}

export const deleteProduct = (ctx: RecordContext, scope: Scope, id: string) =>
  deleteRecord(ctx.em, scope, PRODUCTS, 'product', id);

export interface ProductListQuery extends PageRequest {
  /** Part of the description or of the SKU, any case. */
  q?: string;
  /** The exact SKU. */
  sku?: string;
}

/** `offset`: the console's numbered pages (the API pages by `startingAfter` only). */
export async function listProducts(
  ctx: RecordContext,
  scope: Scope,
  query: ProductListQuery,
  offset = 0,
): Promise<ListAnswer<ProductView>> {
  const page = await listRecords<ProductRow>(ctx.em, scope, PRODUCTS, productConditions(query), {
    limit: query.limit,
    startingAfter: query.startingAfter,
    offset,
  });
  return listAnswer(page, toProductView);
}

/** How many products the list query finds (capped, see COUNT_CAP): the console's count. */
export const countProducts = (
  ctx: RecordContext,
  scope: Scope,
  query: Omit<ProductListQuery, keyof PageRequest>,
): Promise<RowCount> => countRecords(ctx.em, scope, PRODUCTS, productConditions(query));

function productConditions(query: Omit<ProductListQuery, keyof PageRequest>): Conditions {
  const where = new Conditions();
  if (query.sku) where.add('sku = ?', query.sku);
  if (query.q) where.add('(description ilike ? or sku ilike ?)', containing(query.q), containing(query.q));
  return where;
}
