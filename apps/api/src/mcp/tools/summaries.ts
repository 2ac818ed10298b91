import type { Answer } from '../../operations/idempotent';
import { pesos } from '../tool';

interface DocumentLike {
  id: string;
  object: string;
  status: string;
  kind?: string;
  serie?: string;
  folio?: number | null;
  total?: number;
  uuid?: string | null;
  receiver?: { rfc?: string; name: string };
  saldoPendiente?: number | null;
  numParcialidad?: number;
  monto?: number;
  invoiceId?: string;
  saldoInsoluto?: number;
  cancellation?: { status?: string; motivo?: string } | null;
  files?: { status: string };
  employee?: { rfc: string; name: string };
  period?: { fechaPago?: string; mesIni?: number; mesFin?: number; ejercicio?: number };
  cveRetenc?: string;
  totals?: { montoTotRet: number };
}

/** The tool that reads a document of this object, to poll one still stamping. */
const GETTERS: Readonly<Record<string, string>> = {
  payment: 'get_payment',
  nomina: 'get_nomina',
  retention: 'get_retention',
};

function line(doc: DocumentLike): string {
  if (doc.object === 'nomina') {
    return (
      `payroll receipt ${doc.id} ${doc.status}${doc.employee ? ` for ${doc.employee.rfc} ${doc.employee.name}` : ''}` +
      `${doc.period ? `, paid ${doc.period.fechaPago}` : ''}${doc.total !== undefined ? `, net pay ${pesos(doc.total)}` : ''}${doc.uuid ? `, UUID ${doc.uuid}` : ''}`
    );
  }
  if (doc.object === 'retention') {
    const period = doc.period
      ? `, months ${doc.period.mesIni}-${doc.period.mesFin} of ${doc.period.ejercicio}`
      : '';
    const to = doc.receiver ? `, to ${[doc.receiver.rfc, doc.receiver.name].filter(Boolean).join(' ')}` : '';
    return (
      `withholding certificate ${doc.id} ${doc.status}${doc.folio ? `, folio ${doc.folio}` : ''}, CveRetenc ${doc.cveRetenc}` +
      `${period}${to}${doc.totals ? `, withheld ${pesos(doc.totals.montoTotRet)}` : ''}${doc.uuid ? `, UUID ${doc.uuid}` : ''}`
    );
  }
  if (doc.object === 'payment') {
    return (
      `payment ${doc.id} ${doc.status}: installment ${doc.numParcialidad} of invoice ${doc.invoiceId}, ${pesos(doc.monto)}, ` +
      `outstanding after it ${pesos(doc.saldoInsoluto)}${doc.uuid ? `, UUID ${doc.uuid}` : ''}`
    );
  }
  const kind = doc.kind === 'credit_note' ? 'credit note' : `${doc.kind ?? ''} invoice`.trim();
  const parts = [`${kind} ${doc.id} ${doc.status}`];
  // A draft has no folio yet: it is assigned when the draft is stamped.
  if (doc.serie !== undefined)
    parts.push(
      doc.folio === null ? 'no folio yet' : `${doc.serie}-${doc.folio}`,
      `total ${pesos(doc.total)}`,
    );
  if (doc.receiver) parts.push(`to ${doc.receiver.rfc} ${doc.receiver.name}`);
  if (doc.uuid) parts.push(`UUID ${doc.uuid}`);
  if (doc.saldoPendiente !== null && doc.saldoPendiente !== undefined)
    parts.push(`outstanding ${pesos(doc.saldoPendiente)}`);
  return parts.join(', ');
}

/** One document: what it is now, and what to do when it is still in flight. */
export function documentSummary(doc: DocumentLike, answer: Answer): string {
  const replayed = answer.replayed
    ? ' (replayed: this idempotency_key was already used with these arguments; nothing new was stamped or charged)'
    : '';
  if (doc.status === 'stamping') {
    const getter = GETTERS[doc.object] ?? 'get_invoice';
    return `${doc.object} ${doc.id} is still stamping${replayed}; call ${getter} with id ${doc.id} in a few seconds until its status changes.`;
  }
  if (doc.status === 'draft')
    return `${line(doc)}${replayed}: a draft, not stamped and without fiscal validity; edit it with update_draft and stamp it with stamp_draft.`;
  const cancellation = doc.cancellation?.status
    ? `; cancellation ${doc.cancellation.status} (motivo ${doc.cancellation.motivo})`
    : '';
  return `${line(doc)}${cancellation}${replayed}.`;
}

export function listSummary(noun: string, list: { data: DocumentLike[]; has_more?: boolean }): string {
  const more = list.has_more ? `\nMore exist: call again with starting_after=${list.data.at(-1)?.id}.` : '';
  if (!list.data.length) return `No ${noun} match.`;
  return `${list.data.length} ${noun}, newest first:\n${list.data.map((d) => `- ${line(d)}`).join('\n')}${more}`;
}
