import type { TObject } from '@sinclair/typebox';
import type { DocumentKind, DocumentType } from '@cfdi/services';

/** How an operation is named and told in the OpenAPI document and as an MCP tool. */
export interface FaceTexts {
  operationId: string;
  summary: string;
  description: string;
  tool: { name: string; title: string; description: string };
}

/**
 * A resource documents are shown as (invoices and credit notes are invoices): read, listed and cancelled through one
 * set of routes and tools. Declared once here; REST routes (./routes.ts), MCP tools (./tools.ts) and the OpenAPI
 * document (hence the SDK) are made from it.
 */
export interface DocumentResource<Texts extends RouteTexts = FaceTexts> {
  type: DocumentType;
  /** `/invoices`: the list's path; `/invoices/:id` reads one and `/invoices/:id/cancel` cancels it. */
  path: string;
  tag: string;
  /** The resource's schema (the 201 answer of its kinds' creates, the 200 of a read). */
  schema: TObject;
  listQuery: TObject;
  /** How a list of them is named in a tool's summary (`payroll receipts`). */
  plural: string;
  retrieve: Texts;
  list: Texts;
  cancel: Texts;
  /** A resource whose kinds can be drafts (`status: "draft"` on create): the draft operations' texts. */
  drafts?: DraftFaces;
  /**
   * `POST {path}/:id/email` and `GET {path}/:id/emails` (one MCP tool, send_document_email, serves every resource);
   * absent for a resource that does not print (the message is the PDF and the XML).
   */
  email?: RouteTexts;
  emails?: RouteTexts;
}

/**
 * The draft operations of a resource, on `{path}/:id`: PATCH edits, POST `/stamp` stamps, DELETE deletes, POST
 * `/copy` copies any document into a new draft, GET `/preview.pdf` prints one. Only edit and stamp are MCP tools
 * (the others' texts name no tool).
 */
export interface DraftFaces {
  update: FaceTexts;
  stamp: FaceTexts;
  del: RouteTexts;
  copy: RouteTexts;
  preview: RouteTexts;
}

/** How a REST-only operation is named and told in the OpenAPI document. */
export type RouteTexts = Omit<FaceTexts, 'tool'>;

/** A kind of document that is created (and stamped) through its own route and tool. */
export interface ApiDocumentKind<Texts extends RouteTexts = FaceTexts> {
  kind: DocumentKind<never>;
  resource: DocumentResource<Texts>;
  /** POST path; a `:id` in it names the document it hangs from (a payment's invoice). */
  path: string;
  /** The OpenAPI tag, when it is not the resource's. */
  tag?: string;
  body: TObject;
  create: Texts;
  /** The tool's argument that carries the path's `:id` (a payment's `invoiceId`). */
  parentArgument?: { name: string; description: string };
}

/**
 * A resource and the kinds created as it. `tools` says whether its operations are MCP tools too (their texts then
 * name them); a REST-only face has no tool texts. The MCP listing has a size budget (mcp-listing.test.ts): a face
 * gains tools only if they fit in it.
 */
export type DocumentFace =
  | { resource: DocumentResource; kinds: readonly ApiDocumentKind[]; tools: true }
  | {
      resource: DocumentResource<RouteTexts>;
      kinds: readonly ApiDocumentKind<RouteTexts>[];
      tools: false;
    };
