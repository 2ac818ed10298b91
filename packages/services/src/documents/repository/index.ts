/**
 * The documents aggregate's SQL, parameters bound by the driver: `documents` (invoices, credit notes, payments,
 * payroll, withholding certificates and transfers, drafts and cancellation requests are all rows of it), their folio
 * sequences, the sealed fingerprints that keep two CFDIs from sealing alike, and the reconciliations' audit rows.
 * Services call these functions and never write SQL on these tables themselves; each function runs on the
 * `EntityManager` it is given, so it joins the caller's transaction. A read may join another aggregate's tables (the
 * merchant's references read with a document at the start of a stamp).
 */
export * from './rows';
export * from './lookups';
export * from './related';
export * from './creating';
export * from './sealing';
export * from './outcomes';
export * from './work-queues';
export * from './lists';
export * from './search';
