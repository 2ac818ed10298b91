import type { FastifyBaseLogger } from 'fastify';
import type { Static } from '@sinclair/typebox';
import {
  createCreditNoteDocument, createInvoiceDocument, createNominaDocument, createPaymentDocument, listDocuments, retrieveDocument, toInvoiceView,
  toNominaView, toPaymentView, type Scope,
} from '@cfdi/services';
import type { AppDeps } from '../deps';
import type { CreditNoteCreateSchema, InvoiceCreateSchema, InvoiceListQuerySchema } from '../schemas/documents';
import type { NominaCreateSchema, NominaListQuerySchema } from '../schemas/nominas';
import type { PaymentCreateSchema, PaymentListQuerySchema } from '../schemas/payments';
import { runIdempotent, type Answer } from './idempotent';
import { stampNominaBatch, type NominaBatchBody } from './nomina-batch';
import { resumedAnswer, stampAndAnswer } from './stamping';

/**
 * The document operations shared by the REST routes and the MCP tools: each is one call into the services plus the
 * stamp workflow, so both doors validate, charge, stamp and answer identically.
 */
const stampingDeps = (deps: AppDeps) => ({ config: deps.config, catalogs: deps.catalogs, now: deps.now });

export function createInvoice(deps: AppDeps, scope: Scope, body: Static<typeof InvoiceCreateSchema>, key: string, log: FastifyBaseLogger): Promise<Answer> {
  return runIdempotent(deps, scope, key, 'POST /v1/invoices', body, async (claimed) => {
    const row = await createInvoiceDocument(deps.orm.em.fork(), stampingDeps(deps), scope, body, claimed);
    return stampAndAnswer(deps, scope, row, log);
  }, (id) => resumedAnswer(deps, scope, id, log));
}

export function createCreditNote(deps: AppDeps, scope: Scope, body: Static<typeof CreditNoteCreateSchema>, key: string, log: FastifyBaseLogger): Promise<Answer> {
  return runIdempotent(deps, scope, key, 'POST /v1/credit_notes', body, async (claimed) => {
    const row = await createCreditNoteDocument(deps.orm.em.fork(), stampingDeps(deps), scope, body, claimed);
    return stampAndAnswer(deps, scope, row, log);
  }, (id) => resumedAnswer(deps, scope, id, log));
}

export function createPayment(
  deps: AppDeps, scope: Scope, invoiceId: string, body: Static<typeof PaymentCreateSchema>, key: string, log: FastifyBaseLogger,
): Promise<Answer> {
  return runIdempotent(deps, scope, key, `POST /v1/invoices/${invoiceId}/payments`, body, async (claimed) => {
    const row = await createPaymentDocument(deps.orm.em.fork(), stampingDeps(deps), scope, invoiceId, body, claimed);
    return stampAndAnswer(deps, scope, row, log);
  }, (id) => resumedAnswer(deps, scope, id, log));
}

export function createNomina(deps: AppDeps, scope: Scope, body: Static<typeof NominaCreateSchema>, key: string, log: FastifyBaseLogger): Promise<Answer> {
  return runIdempotent(deps, scope, key, 'POST /v1/nominas', body, async (claimed) => {
    const row = await createNominaDocument(deps.orm.em.fork(), stampingDeps(deps), scope, body, claimed);
    return stampAndAnswer(deps, scope, row, log);
  }, (id) => resumedAnswer(deps, scope, id, log));
}

export function createNominaBatch(deps: AppDeps, scope: Scope, body: NominaBatchBody, key: string, log: FastifyBaseLogger): Promise<Answer> {
  // A batch attaches no single resource to its key, so there is nothing to recover: a retry re-runs it receipt by
  // receipt, each under its own derived key, so no receipt is created twice.
  return runIdempotent(deps, scope, key, 'POST /v1/nominas/batch', body, (claimed) => stampNominaBatch(deps, scope, body, claimed, log),
    () => stampNominaBatch(deps, scope, body, key, log));
}

export async function retrieveInvoice(deps: AppDeps, scope: Scope, id: string) {
  return toInvoiceView(await retrieveDocument(deps.orm.em.fork(), scope, id, 'invoice'), deps.fileUrls);
}

export async function retrievePayment(deps: AppDeps, scope: Scope, id: string) {
  return toPaymentView(await retrieveDocument(deps.orm.em.fork(), scope, id, 'payment'), deps.fileUrls);
}

export async function listInvoices(deps: AppDeps, scope: Scope, query: Static<typeof InvoiceListQuerySchema>) {
  const { limit, starting_after: startingAfter, ...filters } = query;
  const page = await listDocuments(deps.orm.em.fork(), scope, 'invoice', filters, { limit, startingAfter });
  return { object: 'list' as const, data: page.rows.map((row) => toInvoiceView(row, deps.fileUrls)), has_more: page.hasMore };
}

export async function listPayments(deps: AppDeps, scope: Scope, query: Static<typeof PaymentListQuerySchema>) {
  const { limit, starting_after: startingAfter, ...filters } = query;
  const page = await listDocuments(deps.orm.em.fork(), scope, 'payment', filters, { limit, startingAfter });
  return { object: 'list' as const, data: page.rows.map((row) => toPaymentView(row, deps.fileUrls)), has_more: page.hasMore };
}

export async function retrieveNomina(deps: AppDeps, scope: Scope, id: string) {
  return toNominaView(await retrieveDocument(deps.orm.em.fork(), scope, id, 'nomina'), deps.fileUrls);
}

export async function listNominas(deps: AppDeps, scope: Scope, query: Static<typeof NominaListQuerySchema>) {
  const { limit, starting_after: startingAfter, ...filters } = query;
  const page = await listDocuments(deps.orm.em.fork(), scope, 'nomina', filters, { limit, startingAfter });
  return { object: 'list' as const, data: page.rows.map((row) => toNominaView(row, deps.fileUrls)), has_more: page.hasMore };
}
