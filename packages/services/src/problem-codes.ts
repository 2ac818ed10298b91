/**
 * Every problem `code` the platform can send, with what its page at `{DOCS_URL}/errors/<code>` says. `AppError`
 * accepts only these keys, so a new code does not compile until it is registered here, and so has its page.
 */
export interface ProblemCodeEntry {
  status: number;
  title: string;
  /** What happened, in one or two sentences. */
  meaning: string;
  /** What the caller does about it. */
  fix: string;
  /** Where the code's reason comes from when it is not ours (the SAT's or the PAC's catalogues). */
  source?: string;
  /** Raised only by the console's own actions: never in the REST API's OpenAPI document. */
  consoleOnly?: true;
}

export const PROBLEM_CODES = {
  validation_error: {
    status: 400,
    title: 'Validation failed',
    meaning:
      'A field of the request failed validation: the body, the query, a path parameter or a header. `errors[]` lists every invalid field with its JSON-pointer `path` (e.g. `/items/0/unitPrice`). A CSD upload that cannot be used also carries a `subcode` (`csd_invalid_certificate`, `csd_invalid_key`, `csd_wrong_password`, `csd_key_mismatch`, `csd_is_fiel`, `csd_expired`, `csd_not_yet_valid`, `csd_rfc_mismatch`, `csd_pac_rejected`).',
    fix: 'Correct each field named in `errors[]` and send the request again; a new request needs a new Idempotency-Key only when its body changes. Fiscal rules (CFDI 4.0, Nómina 1.2, payments) are checked before any timbre is reserved, so nothing was charged.',
    source:
      'Fiscal checks mirror the SAT\u2019s CFDI 4.0 validation matrix (Anexo 20); the message names the SAT rule (e.g. CFDI40103) where there is one.',
  },
  unauthorized: {
    status: 401,
    title: 'Unauthorized',
    meaning: 'The request has no `Authorization` header, or its API key is unknown or revoked.',
    fix: 'Send `Authorization: Bearer sk_test_\u2026` (test mode) or `sk_live_\u2026` (live mode) with a key that is active in the console or `cfdi keys list`.',
  },
  insufficient_credits: {
    status: 402,
    title: 'Insufficient credits',
    meaning:
      'The balance does not cover one timbre. Stamping and cancelling reserve one timbre before anything is sent to the PAC.',
    fix: 'Top up the balance (`POST /v1/billing/checkout_sessions`, or the console) and retry with the same Idempotency-Key. In test mode an operator can recharge for free with `cfdi balance adjust --recharge`.',
  },
  monthly_limit_reached: {
    status: 402,
    title: 'Monthly limit reached',
    meaning: 'The account has stamped as many documents this month as its configured monthly limit allows.',
    fix: 'Wait for the next calendar month, or ask an operator to raise the account\u2019s monthly limit.',
  },
  forbidden: {
    status: 403,
    title: 'Forbidden',
    meaning:
      'The caller is known but may not do this: a restricted key outside its merchants, a console role that does not allow the action, an MCP connection granted the `read` scope calling a tool that writes, `/metrics` without its token, or a signed file URL that is expired or altered.',
    fix: 'Use a key that covers the merchant and the operation, connect the MCP application again approving write access, or request a fresh signed URL by retrieving the document again.',
  },
  not_found: {
    status: 404,
    title: 'Not found',
    meaning:
      'No such resource in this account and mode. Another account\u2019s id, or a test-mode id called with a live key, answers exactly like an id that never existed.',
    fix: 'Check the id and that the key\u2019s mode (`sk_test_` / `sk_live_`) is the one the resource was created in. For a file that is not rendered yet, retry after `Retry-After`.',
  },
  method_not_allowed: {
    status: 405,
    title: 'Method not allowed',
    meaning: 'The MCP endpoint is stateless: it has no session stream to GET and no session to DELETE.',
    fix: 'Send JSON-RPC messages with POST to `/mcp/test` or `/mcp/live`.',
  },
  request_timeout: {
    status: 408,
    title: 'Request timeout',
    meaning: 'The server did not receive the whole request in time.',
    fix: 'Send the request again, all at once; check proxies that buffer or stall uploads.',
  },
  receipt_not_open: {
    status: 409,
    title: 'Receipt not open',
    meaning:
      'The receipt was already invoiced (by its customer in the portal or through the API), put in a global invoice, or cancelled; only an open receipt can be invoiced or cancelled. The answer names what became of it.',
    fix: 'Retrieve the receipt: `invoiceId` names the invoice that covers it. To undo an invoiced receipt, cancel that invoice.',
  },
  no_open_receipts: {
    status: 409,
    title: 'No open receipts',
    meaning:
      'The period has no receipt left to put in a global invoice: every sale of it was invoiced to its customer or cancelled, or none was made. Nothing was stored or charged.',
    fix: 'Nothing to do. List the period’s receipts (`GET /v1/receipts?merchantId=…`) to see what became of each.',
  },
  request_in_flight: {
    status: 409,
    title: 'Conflict',
    meaning: 'Another request with the same Idempotency-Key is still being processed.',
    fix: 'Wait a moment and retry with the same key: you then get the first request\u2019s answer, never a second document.',
  },
  csd_already_exists: {
    status: 409,
    title: 'Conflict',
    meaning: 'The merchant already has a CSD; `POST` adds the first one only.',
    fix: 'Replace it with `PUT /v1/merchants/{id}/csd`.',
  },
  cancellation_in_progress: {
    status: 409,
    title: 'Conflict',
    meaning: 'A cancellation of this document is already being requested.',
    fix: 'Wait for its outcome (the document\u2019s `cancellation.status`, or the `*.cancelled` webhook) before asking again.',
  },
  document_not_stamped: {
    status: 409,
    title: 'Conflict',
    meaning:
      'Only a stamped or cancelled document can be e-mailed; this one is still stamping, failed or a draft.',
    fix: 'Wait until the document is stamped (or stamp the draft), then send it.',
  },
  document_files_unavailable: {
    status: 409,
    title: 'Conflict',
    meaning:
      'The document has no stamped XML on this server (it was recorded from an operator\u2019s decision), so there is nothing to attach.',
    fix: 'Obtain the XML from the SAT\u2019s portal or the PAC; the document cannot be e-mailed from here.',
  },
  not_a_draft: {
    status: 409,
    title: 'Conflict',
    meaning:
      'Only a draft can be edited, stamped or deleted; this document is already stamping, stamped or failed.',
    fix: 'Retrieve the document to see its status. To change a stamped document, cancel it and issue a new one.',
  },
  sku_already_exists: {
    status: 409,
    title: 'Conflict',
    meaning:
      'Another saved product of this account and mode already has this SKU; SKUs name one live product each.',
    fix: 'Use another SKU, update the existing product (find it with `GET /v1/products?sku=…`), or delete it first.',
  },
  console_user_disabled: {
    status: 409,
    title: 'Conflict',
    meaning: 'The console user is disabled, so their role and scope cannot be changed.',
    fix: 'A disabled user stays disabled: create a new console user (`cfdi console-users create`) if they need access again.',
    consoleOnly: true,
  },
  last_admin: {
    status: 409,
    title: 'Conflict',
    meaning: 'This change would leave the console without an active admin.',
    fix: 'Make another user admin first, then change this one.',
    consoleOnly: true,
  },
  not_replaceable: {
    status: 409,
    title: 'Conflict',
    meaning:
      'Only a stamped invoice with no cancellation under way can be replaced by a new one (relation 04).',
    fix: 'Open the invoice to see its status; a cancelled invoice needs no replacement, a new invoice is issued instead.',
    consoleOnly: true,
  },
  payload_too_large: {
    status: 413,
    title: 'Payload too large',
    meaning: 'The request body is larger than 1 MB.',
    fix: 'Send fewer concepts per document (at most 500), a smaller logo (at most 500 KB decoded), or split a payroll batch.',
  },
  unsupported_media_type: {
    status: 415,
    title: 'Unsupported media type',
    meaning: 'The body is not JSON.',
    fix: 'Send the body as JSON with `Content-Type: application/json`.',
  },
  idempotency_key_reuse: {
    status: 422,
    title: 'Idempotency key reuse',
    meaning: 'This Idempotency-Key was already used with a different request body.',
    fix: 'Use a new key for a new request. Reuse a key only to retry exactly the same request.',
  },
  sat_rejected: {
    status: 422,
    title: 'Rejected by the SAT or the PAC',
    meaning:
      'The SAT or the PAC refused the document or its cancellation. `satCode` carries their code (e.g. `CFDI40145`, `702`, `205`) or ours when the document could not be sealed (`csd_expired`, `csd_unavailable`, `duplicate_cfdi`). The reserved timbre was refunded.',
    fix: 'Read `detail` and `satCode`, correct the document (or the merchant\u2019s CSD) and send it as a new request with a new Idempotency-Key.',
    source:
      'CFDI40xxx codes are the SAT\u2019s CFDI 4.0 validation matrix (Anexo 20, \u201cMatriz de errores\u201d); 3-digit codes are the PAC\u2019s stamping codes (e.g. 702: issuer not registered with the PAC); cancellation codes (201\u2013208, `no_cancelable`) are the SAT\u2019s cancellation service answers.',
  },
  rate_limited: {
    status: 429,
    title: 'Too many requests',
    meaning:
      'The account sent more requests this minute than its limit (300 per minute unless configured otherwise).',
    fix: 'Wait the number of seconds in `Retry-After`, then retry; `X-RateLimit-Remaining` tells how many requests are left.',
  },
  headers_too_large: {
    status: 431,
    title: 'Request header fields too large',
    meaning: 'The request headers are larger than the server accepts.',
    fix: 'Send fewer or shorter headers (cookies a proxy adds are a common cause).',
  },
  internal_error: {
    status: 500,
    title: 'Internal error',
    meaning:
      'Something unexpected failed on the server. It has been logged; nothing about it is shown to the caller.',
    fix: 'Retry with the same Idempotency-Key: a document that was created is returned, never created twice. If it persists, tell the operator the time of the request.',
  },
  pac_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning:
      'The PAC could not be reached or did not take the request. Nothing was stamped or cancelled, and the timbre was refunded.',
    fix: 'Retry later with the same Idempotency-Key.',
  },
  billing_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning: 'Billing (Stripe) is not configured on this server for this mode.',
    fix: 'Ask the operator to configure Stripe. In test mode `cfdi balance adjust --recharge` tops up a balance for free.',
  },
  encryption_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning:
      'The server has no MASTER_KEY, so it cannot store secrets (CSD keys, webhook secrets) encrypted.',
    fix: 'Ask the operator to set MASTER_KEY (docs/operations.md).',
  },
  email_unavailable: {
    status: 503,
    title: 'Service unavailable',
    meaning: 'E-mail is not configured on this server (no SMTP_URL); nothing was sent.',
    fix: 'Ask the operator to configure SMTP_URL, or download the files and send them yourself.',
  },
} as const satisfies Record<string, ProblemCodeEntry>;

export type ProblemCode = keyof typeof PROBLEM_CODES;

/** The codes registered with HTTP status `S` (e.g. the 409 conflicts). */
export type ProblemCodeWithStatus<S extends number> = {
  [C in ProblemCode]: (typeof PROBLEM_CODES)[C]['status'] extends S ? C : never;
}[ProblemCode];

export const isProblemCode = (code: string): code is ProblemCode => Object.hasOwn(PROBLEM_CODES, code);
