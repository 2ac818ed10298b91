import { computeInvoice, type ComputedGroup, type InvoiceInput } from '@cfdi/cfdi';
import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import type { DocumentKind } from '../documents/kinds';
import type { StampingDeps } from '../documents/stamping-deps';
import { preparerOf } from './draft-row';

/** What a create body would come to, per tax (c_Impuesto, factor and rate), as its stamp would carry it. */
export interface DraftTotals {
  subtotal: string;
  discount: string;
  total: string;
  taxes: ComputedGroup[];
}

/**
 * The totals of a create body before anything is stored: the same `prepare` (references, fiscal checks, the tax
 * engine) a draft and a stamp run, so a form shows exactly what the document will say; a bad body is the same 400.
 */
export async function draftTotals(
  em: EntityManager,
  deps: StampingDeps,
  scope: Scope,
  kind: DocumentKind<never>,
  body: Record<string, unknown>,
): Promise<DraftTotals> {
  const { details } = await preparerOf(kind)(em, deps, scope, body as never);
  return totalsOf(details);
}

/**
 * The totals of a prepared or stored invoice or credit note (a draft's row): the document-level tax groups computed
 * again from its engine input (the engine is pure and fast), the amounts as stored.
 */
export function totalsOf(document: {
  subtotal: string;
  discount: string;
  total: string;
  input: unknown;
}): DraftTotals {
  return {
    subtotal: document.subtotal,
    discount: document.discount,
    total: document.total,
    taxes: computeInvoice(document.input as InvoiceInput).traslados,
  };
}
