import { dec, fixed, round } from '../decimal/money';
import { paymentMontoBand } from '../payment/compute-payment';
import type { CatalogLookup } from './catalog-lookup';
import { tipoCambioText } from './currency';
import { checkFormaPago } from './invoice-request';
import { checkPositive, decimals, isNumberLike, isString, Issues, type ValidationIssue } from './issues';

/** POST /v1/invoices/{id}/payments body (api-spec.md PaymentCreate). Balances are the server's job. */
export interface PaymentRequest {
  monto?: unknown;
  formaPago?: unknown;
  fechaPago?: unknown;
  numParcialidad?: unknown;
  monedaP?: unknown;
  tipoCambioP?: unknown;
  equivalenciaDR?: unknown;
  impPagado?: unknown;
}

/** The paid invoice as the checks need it: its currency (MonedaDR). */
export interface PaidInvoice {
  moneda: string;
}

/** The amounts of a valid payment as exact texts, in the decimals of their currencies. */
export interface CheckedPayment {
  monto: string;
  monedaP: string;
  monedaPDecimals: number;
  /** Absent for MXN. */
  tipoCambioP?: string;
  /** Absent when the invoice is in monedaP. */
  equivalenciaDR?: string;
  /** In the invoice's currency and decimals. */
  impPagado: string;
  invoiceDecimals: number;
}

const FECHA =
  /^20[0-9]{2}-(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])T([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]$/;

/** EquivalenciaDR (Pagos20.xsd): a decimal of up to 10 decimals, at least 0.0000000001. */
const EQUIVALENCIA = /^[0-9]{1,18}(\.[0-9]{1,10})?$/;

/** A JSON number or numeric string as its exact decimal text (17.5 is "17.5"). */
const exactText = (value: number | string): string =>
  typeof value === 'number' ? value.toFixed(decimals(value)) : value;

export function validatePaymentRequest(
  req: PaymentRequest,
  catalogs: CatalogLookup,
  invoice: PaidInvoice = { moneda: 'MXN' },
): ValidationIssue[] {
  return checkPaymentRequest(req, catalogs, invoice).issues;
}

/**
 * The payment's own fields (cfdi40.md §5.3, §5.4), each refused on its path: MonedaP a c_Moneda key other than XXX
 * (CRP20213); TipoCambioP required iff MonedaP is not MXN and absent or 1 with MXN (CRP20214/20215); Monto in MonedaP
 * decimals; EquivalenciaDR required when the invoice's currency differs from MonedaP (CRP20237) and absent or 1 when
 * it is the same (CRP20238); ImpPagado in the invoice's decimals, and ImpPagado / EquivalenciaDR covered by Monto
 * within the SAT tolerance (CRP20217) with nothing of Monto left unapplied beyond that tolerance (one payment pays one
 * invoice here: docs/decisions.md).
 */
export function checkPaymentRequest(
  req: PaymentRequest,
  catalogs: CatalogLookup,
  invoice: PaidInvoice = { moneda: 'MXN' },
): { issues: ValidationIssue[]; payment?: CheckedPayment } {
  const issues = new Issues();
  const monedaP = req.monedaP ?? 'MXN';
  const entryP = isString(monedaP) && monedaP !== 'XXX' ? catalogs.moneda(monedaP) : undefined;
  if (!entryP) {
    issues.add(
      '/monedaP',
      monedaP === 'XXX'
        ? 'XXX (no currency) is not allowed: send the currency the money arrived in (CRP20213)'
        : `${String(monedaP)} is not a c_Moneda key (ISO 4217: MXN, USD, EUR, JPY...) (CRP20213)`,
    );
  }
  const decP = entryP?.decimales ?? 2;
  const montoOk = checkPositive(issues, '/monto', req.monto, decP);

  if (checkFormaPago(issues, req.formaPago, catalogs) && req.formaPago === '99') {
    issues.add(
      '/formaPago',
      '99 (por definir) is not allowed in a payment: send the form the money arrived by (CRP20212)',
    );
  }
  if (req.fechaPago !== undefined && (typeof req.fechaPago !== 'string' || !FECHA.test(req.fechaPago))) {
    issues.add(
      '/fechaPago',
      'must be a local date-time YYYY-MM-DDTHH:MM:SS without zone, e.g. 2026-11-19T13:05:00',
    );
  }
  if (
    req.numParcialidad !== undefined &&
    (typeof req.numParcialidad !== 'number' ||
      !Number.isInteger(req.numParcialidad) ||
      req.numParcialidad < 1 ||
      req.numParcialidad > 999)
  ) {
    issues.add('/numParcialidad', 'must be an integer from 1 to 999');
  }

  let tipoCambioP: string | undefined;
  if (monedaP === 'MXN') {
    if (req.tipoCambioP !== undefined && Number(req.tipoCambioP) !== 1)
      issues.add('/tipoCambioP', 'must be absent or 1 with monedaP MXN (CRP20215)');
  } else if (entryP) {
    if (req.tipoCambioP === undefined)
      issues.add(
        '/tipoCambioP',
        `is required with monedaP ${monedaP}: the MXN value of one ${monedaP} on the payment date (CRP20214)`,
      );
    else {
      tipoCambioP = tipoCambioText(req.tipoCambioP);
      if (!tipoCambioP) issues.add('/tipoCambioP', 'must be a number greater than 0 with at most 6 decimals');
    }
  }

  const decDR = catalogs.moneda(invoice.moneda)?.decimales ?? 2;
  const sameCurrency = monedaP === invoice.moneda;
  let equivalenciaDR: string | undefined;
  if (sameCurrency) {
    if (req.equivalenciaDR !== undefined && Number(req.equivalenciaDR) !== 1)
      issues.add(
        '/equivalenciaDR',
        `must be absent or 1: the invoice is in ${invoice.moneda}, the payment's currency (CRP20238)`,
      );
  } else if (entryP) {
    if (req.equivalenciaDR === undefined)
      issues.add(
        '/equivalenciaDR',
        `is required: the invoice is in ${invoice.moneda} and the payment in ${String(monedaP)}; send how many ${invoice.moneda} one ${String(monedaP)} paid (CRP20237)`,
      );
    else if (
      !isNumberLike(req.equivalenciaDR) ||
      Number(req.equivalenciaDR) <= 0 ||
      decimals(req.equivalenciaDR) > 10 ||
      !EQUIVALENCIA.test(exactText(req.equivalenciaDR))
    )
      issues.add('/equivalenciaDR', 'must be a number greater than 0 with at most 10 decimals');
    else equivalenciaDR = exactText(req.equivalenciaDR);
  }

  const impOk =
    req.impPagado === undefined || checkPositive(issues, '/impPagado', req.impPagado, decDR, false);
  if (!montoOk || !impOk || issues.list.length > 0) return { issues: issues.list };

  const monto = fixed(dec(exactText(req.monto as number | string)), decP);
  if (sameCurrency) {
    if (req.impPagado !== undefined && !dec(exactText(req.impPagado as number | string)).equals(monto))
      issues.add(
        '/impPagado',
        `must be absent or equal to monto (${monto}) when the invoice is in the payment's currency: the whole payment applies to it`,
      );
    return issues.list.length
      ? { issues: issues.list }
      : {
          issues: [],
          payment: {
            monto,
            monedaP,
            monedaPDecimals: decP,
            ...(tipoCambioP ? { tipoCambioP } : {}),
            impPagado: fixed(dec(monto), decDR),
            invoiceDecimals: decDR,
          },
        };
  }

  const sent = req.impPagado !== undefined;
  const impPagado = sent
    ? fixed(dec(exactText(req.impPagado as number | string)), decDR)
    : fixed(round(dec(monto).times(equivalenciaDR!), decDR), decDR);
  const path = sent ? '/impPagado' : '/equivalenciaDR';
  const how = sent
    ? `impPagado ${impPagado} ${invoice.moneda}`
    : `monto × equivalenciaDR (${impPagado} ${invoice.moneda})`;
  if (dec(impPagado).isZero()) {
    issues.add(path, `${how} is 0 in the invoice's ${decDR} decimals: nothing would be paid`);
    return { issues: issues.list };
  }
  const { converted, li, ls } = paymentMontoBand(impPagado, equivalenciaDR!, decP);
  const m = dec(monto);
  if (!converted.lte(m) && !(li.lte(m) && m.lte(ls)))
    issues.add(
      path,
      `${how} ÷ equivalenciaDR ${equivalenciaDR} is ${converted.toFixed(decP)} ${String(monedaP)}, more than monto ${monto} beyond the SAT tolerance [${li.toFixed(decP)}, ${ls.toFixed(decP)}] (CRP20217)`,
    );
  else if (m.gt(ls))
    issues.add(
      path,
      `${how} ÷ equivalenciaDR ${equivalenciaDR} is ${converted.toFixed(decP)} ${String(monedaP)}: it leaves part of monto ${monto} unapplied (at most ${ls.toFixed(decP)} applies); a payment applies all its monto to its invoice`,
    );
  if (issues.list.length) return { issues: issues.list };
  return {
    issues: [],
    payment: {
      monto,
      monedaP: monedaP as string,
      monedaPDecimals: decP,
      ...(tipoCambioP ? { tipoCambioP } : {}),
      equivalenciaDR,
      impPagado,
      invoiceDecimals: decDR,
    },
  };
}
