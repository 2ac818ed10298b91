import type { Amount, Issuer } from '../types';

/** Receptor of a withholding certificate: a Mexican taxpayer (RFC, CP) or a foreign one. */
export type RetentionReceiver =
  | { nacionalidad: 'Nacional'; rfc: string; name: string; zip: string; curp?: string }
  | { nacionalidad: 'Extranjero'; name: string; numRegIdTrib?: string };

/** One ImpRetenidos: a tax withheld (ISR 001, IVA 002, IEPS 003) and how it was paid (c_TipoPagoRet). */
export interface RetentionWithholding {
  baseRet?: Amount;
  impuestoRet?: string;
  montoRet: Amount;
  tipoPagoRet: string;
}

/**
 * A Retenciones 2.0 certificate as the engine builds it. MontoTotOperacion and MontoTotRet are derived
 * (Grav + Exent, Σ MontoRet); the request may state them and is refused when they do not add up.
 */
export interface RetentionInput {
  issuer: Issuer;
  folioInt?: string;
  cveRetenc: string;
  descRetenc?: string;
  related?: { tipoRelacion: string; uuid: string };
  receiver: RetentionReceiver;
  period: { mesIni: number; mesFin: number; ejercicio: number };
  totals: {
    montoTotGrav: Amount;
    montoTotExent: Amount;
    utilidadBimestral?: Amount;
    isrCorrespondiente?: Amount;
  };
  /** Absent or empty: nothing withheld (MontoTotRet 0), a certificate of payments only. */
  withholdings?: RetentionWithholding[];
}

export interface RetentionTotals {
  montoTotOperacion: string;
  montoTotGrav: string;
  montoTotExent: string;
  montoTotRet: string;
}
