import { checkProductRecord } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import { Conditions, type PageRequest } from '../pagination';
import type { Scope } from '../scope';
import { isoTimestamp } from '../time';
import { containing, FieldConflictError, recordOperations, rejectIssues } from './record-store';
import { skuTakenByAnother } from './record-repository';

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
    if (await skuTakenByAnother(em, scope, sku, id)) throw skuTaken(sku);
  }
  try {
    return await save();
  } catch (error) {
    if (sku && (error as { code?: string }).code === '23505') throw skuTaken(sku);
    throw error;
  }
}

export interface ProductFilters {
  /** Part of the description or of the SKU, any case. */
  q?: string;
  /** The exact SKU. */
  sku?: string;
}

export type ProductListQuery = PageRequest & ProductFilters;

const products = recordOperations<ProductRow, ProductView, ProductCreate, ProductFilters>({
  table: 'products',
  noun: 'product',
  object: 'product',
  plural: 'products',
  idPrefix: 'prod',
  defaults: DEFAULTS,
  toView: toProductView,
  columnsOf,
  conditions(query) {
    const where = new Conditions();
    if (query.sku) where.add('sku = ?', query.sku);
    if (query.q) where.add('(description ilike ? or sku ilike ?)', containing(query.q), containing(query.q));
    return where;
  },
  /** The item rules; the product and unit keys need the imported catalogs. */
  async check(ctx, product) {
    await ctx.catalogs.index();
    rejectIssues('product', checkProductRecord(product, ctx.catalogs.lookup));
  },
  guardSave: (em, scope, input, id, save) => saveUniqueSku(em, scope, input.sku, id, save),
});

export const createProduct = products.create;
/** The live product of the scope as a row (404 otherwise): for items made from it. */
export const findProduct = products.find;
export const retrieveProduct = products.retrieve;
export const updateProduct = products.update;
export const deleteProduct = products.remove;
export const listProducts = products.list;
export const countProducts = products.count;
