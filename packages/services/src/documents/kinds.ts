import {
  buildCreditNoteXml,
  buildInvoiceXml,
  buildNominaXml,
  buildPaymentXml,
  buildRetentionXml,
  buildTrasladoXml,
  type CreditNoteInput,
  type InvoiceInput,
  type PaymentInput,
} from '@cfdi/cfdi';
import type { PacClient } from '@cfdi/pac';
import type { EntityManager } from '@cfdi/db';
import type { Scope } from '../scope';
import { createPaymentDocument, type PaymentCreate } from '../payments/create-payment';
import { createCreditNoteDocument, prepareCreditNote, type CreditNoteCreate } from './create-credit-note';
import { createInvoiceDocument, prepareInvoice, type InvoiceCreate } from './create-invoice';
import { createNominaDocument } from './create-nomina';
import { createRetentionDocument } from './create-retention';
import { createTrasladoDocument } from './create-traslado';
import type { DocumentRecord, DocumentRow, DocumentType } from './document-row';
import { toInvoiceView, type DocumentUrlSigner } from './invoice-view';
import { toNominaView } from './nomina-view';
import { toPaymentView } from './payment-view';
import { toRetentionView } from './retention-view';
import { toTrasladoView } from './traslado-view';
import type { PreparedDocument } from './prepared-document';
import type { StampingDeps } from './stamping-deps';

/**
 * A kind of document the platform stamps, declared once: how a request becomes a stored document, how a stored one
 * becomes its CFDI, and how it is shown. The API's routes and MCP tools (apps/api/src/kinds), the stamp path
 * (sealing) and events all go through these declarations, so a new kind is one more entry here and there.
 */
export interface DocumentKind<Body = never, View = unknown> {
  name: DocumentKindName;
  /**
   * The resource its documents are shown as: the view's `object`, the events' prefix (`invoice.stamped`,
   * `retention.cancelled`) and the id range (`DOCUMENT_ID_PREFIX`: `inv_…`, `ret_…`).
   */
  resource: DocumentType;
  /** The PAC's service for it: the CFDI's stamp/lookup/cancel, or the withholding certificates' own. */
  pac: PacOperations;
  /** Whether it prints: a kind without a PDF has its stamped XML as its only file (no PDF, no ZIP, no e-mail). */
  pdf: boolean;
  /** Whether a stored document is of this kind. */
  matches(row: Pick<DocumentRow, 'type' | 'kind'>): boolean;
  /**
   * Validates the request, assigns the folio, reserves one timbre and stores the document `stamping`, in one
   * transaction. `parentId` is the document it hangs from (the invoice a payment pays).
   */
  create(
    em: EntityManager,
    deps: StampingDeps,
    scope: Scope,
    body: Body,
    options: { idempotencyKey?: string; parentId?: string },
  ): Promise<DocumentRow>;
  /**
   * Kinds that can be drafts: validation and the tax engine without storing anything (what `create` stores). A draft
   * is stored from it, and stamped by preparing its request again and storing it as `create` does.
   */
  prepare?(em: EntityManager, deps: StampingDeps, scope: Scope, body: Body): Promise<PreparedDocument>;
  /** The CFDI (before its seal) of a stored document, from the engine input it was stored with. */
  buildXml(input: unknown, now: Date): string;
  /** The resource as the API, MCP tools and events show it. */
  view(record: DocumentRecord, sign?: DocumentUrlSigner): View;
}

export type DocumentKindName = 'invoice' | 'credit_note' | 'payment' | 'nomina' | 'retention' | 'traslado';

/** Which PacClient methods stamp, look up and cancel a kind's documents (they share one signature each). */
export interface PacOperations {
  stamp: 'stamp' | 'stampRetention';
  lookup: 'lookupStamped' | 'lookupStampedRetention';
  cancel: 'cancel' | 'cancelRetention';
}

const CFDI_PAC: PacOperations = { stamp: 'stamp', lookup: 'lookupStamped', cancel: 'cancel' };
const RETENTION_PAC: PacOperations = {
  stamp: 'stampRetention',
  lookup: 'lookupStampedRetention',
  cancel: 'cancelRetention',
};

/** The PAC's operations for a stored document, bound to the client of its mode: the one place that chooses. */
export function documentPac(
  client: PacClient,
  row: Pick<DocumentRow, 'type' | 'kind'>,
): Pick<PacClient, 'stamp' | 'lookupStamped' | 'cancel'> {
  const ops = kindOf(row).pac;
  return {
    stamp: (xml, ctx) => client[ops.stamp](xml, ctx),
    lookupStamped: (xml, ctx) => client[ops.lookup](xml, ctx),
    cancel: (xml, ctx) => client[ops.cancel](xml, ctx),
  };
}

const invoice: DocumentKind<InvoiceCreate, ReturnType<typeof toInvoiceView>> = {
  name: 'invoice',
  resource: 'invoice',
  matches: (row) => row.type === 'invoice' && row.kind !== 'credit_note',
  pac: CFDI_PAC,
  pdf: true,
  create: (em, deps, scope, body, { idempotencyKey }) =>
    createInvoiceDocument(em, deps, scope, body, idempotencyKey),
  prepare: prepareInvoice,
  buildXml: (input, now) => buildInvoiceXml(input as InvoiceInput, { now }).xml,
  view: toInvoiceView,
};

const creditNote: DocumentKind<CreditNoteCreate, ReturnType<typeof toInvoiceView>> = {
  name: 'credit_note',
  resource: 'invoice',
  matches: (row) => row.type === 'invoice' && row.kind === 'credit_note',
  pac: CFDI_PAC,
  pdf: true,
  create: (em, deps, scope, body, { idempotencyKey }) =>
    createCreditNoteDocument(em, deps, scope, body, idempotencyKey),
  prepare: prepareCreditNote,
  buildXml: (input, now) => buildCreditNoteXml(input as CreditNoteInput, { now }).xml,
  view: toInvoiceView,
};

const payment: DocumentKind<PaymentCreate, ReturnType<typeof toPaymentView>> = {
  name: 'payment',
  resource: 'payment',
  matches: (row) => row.type === 'payment',
  pac: CFDI_PAC,
  pdf: true,
  create: (em, deps, scope, body, { idempotencyKey, parentId }) =>
    createPaymentDocument(em, deps, scope, parentId!, body, idempotencyKey),
  buildXml: (input, now) => buildPaymentXml(input as PaymentInput, { now }).xml,
  view: toPaymentView,
};

/**
 * A kind that is a whole document type (payroll, withholding certificates, transfers): named, shown and matched by
 * its type, created from its body alone, and built by its engine's builder from the input it was stored with.
 */
function wholeTypeKind<Body, View>(
  type: 'nomina' | 'retention' | 'traslado',
  pac: PacOperations,
  declared: {
    create(
      em: EntityManager,
      deps: StampingDeps,
      scope: Scope,
      body: Body,
      key?: string,
    ): Promise<DocumentRow>;
    build(input: never, options: { now: Date }): { xml: string };
    view: DocumentKind<Body, View>['view'];
    /** Default true. */
    pdf?: boolean;
  },
): DocumentKind<Body, View> {
  const { create, build, view, pdf = true } = declared;
  return {
    name: type,
    resource: type,
    matches: (row) => row.type === type,
    pac,
    pdf,
    create: (em, deps, scope, body, { idempotencyKey }) => create(em, deps, scope, body, idempotencyKey),
    buildXml: (input, now) => build(input as never, { now }).xml,
    view,
  };
}

const nomina = wholeTypeKind('nomina', CFDI_PAC, {
  create: createNominaDocument,
  build: buildNominaXml,
  view: toNominaView,
});

const retention = wholeTypeKind('retention', RETENTION_PAC, {
  create: createRetentionDocument,
  build: buildRetentionXml,
  view: toRetentionView,
  // The SAT publishes no printed representation of a certificate; the stamped XML is the document (see decisions.md).
  pdf: false,
});

const traslado = wholeTypeKind('traslado', CFDI_PAC, {
  create: createTrasladoDocument,
  build: buildTrasladoXml,
  view: toTrasladoView,
});

/** Every kind, by name. */
export const DOCUMENT_KINDS = {
  invoice,
  credit_note: creditNote,
  payment,
  nomina,
  retention,
  traslado,
} as const;

const ALL: readonly DocumentKind<never>[] = Object.values(DOCUMENT_KINDS) as DocumentKind<never>[];

/** The kind of a stored document. */
export function kindOf(row: Pick<DocumentRow, 'type' | 'kind'>): DocumentKind<never> {
  const kind = ALL.find((k) => k.matches(row));
  if (!kind) throw new Error(`no document kind matches type ${row.type}, kind ${row.kind}`);
  return kind;
}
