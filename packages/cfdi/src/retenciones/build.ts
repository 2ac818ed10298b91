import { dec, fixed, sum } from '../decimal/money';
import { formatFecha } from '../time/fecha';
import type { Amount, BuildOptions } from '../types';
import { createRoot, serializeDocument, type XmlAttributes } from '../xml/builder';
import { NS } from '../xml/dom';
import type { RetentionInput, RetentionTotals } from './types';

export const RETENCIONES_SCHEMA_LOCATION =
  'http://www.sat.gob.mx/esquemas/retencionpago/2 http://www.sat.gob.mx/esquemas/retencionpago/2/retencionpagov2.xsd';

export interface BuiltRetention {
  xml: string;
  totals: RetentionTotals;
}

const money = (value: Amount) => fixed(dec(value), 2);
const month = (m: number) => String(m).padStart(2, '0');

/** Drops undefined values so optional attributes are absent, not empty (empty is a field in the cadena). */
function present(attrs: Record<string, string | undefined>): XmlAttributes {
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)) as XmlAttributes;
}

/** Totals of the certificate: the operation is what was taxed plus what was exempt; withheld is Σ MontoRet. */
export function retentionTotals(input: Pick<RetentionInput, 'totals' | 'withholdings'>): RetentionTotals {
  const grav = dec(input.totals.montoTotGrav);
  const exent = dec(input.totals.montoTotExent);
  return {
    montoTotOperacion: fixed(grav.plus(exent), 2),
    montoTotGrav: fixed(grav, 2),
    montoTotExent: fixed(exent, 2),
    montoTotRet: fixed(sum((input.withholdings ?? []).map((w) => dec(w.montoRet))), 2),
  };
}

/**
 * Unsigned Retenciones 2.0 document (retencionpagov2.xsd): NoCertificado, Certificado and Sello are set by
 * sealXml, which reads the cadena of this root with retenciones.xslt's field order.
 */
export function buildRetentionXml(input: RetentionInput, options: BuildOptions): BuiltRetention {
  const totals = retentionTotals(input);
  const root = createRoot(NS.retenciones, 'retenciones:Retenciones', {
    'xmlns:xsi': NS.xsi,
    'xsi:schemaLocation': RETENCIONES_SCHEMA_LOCATION,
    ...present({
      Version: '2.0',
      FolioInt: input.folioInt,
      Sello: '',
      NoCertificado: '',
      Certificado: '',
      FechaExp: formatFecha(options.now, options.timeZone),
      LugarExpRetenc: input.issuer.zip,
      CveRetenc: input.cveRetenc,
      DescRetenc: input.descRetenc,
    }),
  });
  const R = NS.retenciones;
  if (input.related) {
    root.ele(R, 'retenciones:CfdiRetenRelacionados', {
      TipoRelacion: input.related.tipoRelacion,
      UUID: input.related.uuid,
    });
  }
  root.ele(R, 'retenciones:Emisor', {
    RfcE: input.issuer.rfc,
    NomDenRazSocE: input.issuer.legalName,
    RegimenFiscalE: input.issuer.regimenFiscal,
  });
  const r = input.receiver;
  const receptor = root.ele(R, 'retenciones:Receptor', { NacionalidadR: r.nacionalidad });
  if (r.nacionalidad === 'Nacional') {
    receptor.ele(
      R,
      'retenciones:Nacional',
      present({ RfcR: r.rfc, NomDenRazSocR: r.name, CurpR: r.curp, DomicilioFiscalR: r.zip }),
    );
  } else {
    receptor.ele(
      R,
      'retenciones:Extranjero',
      present({ NumRegIdTribR: r.numRegIdTrib, NomDenRazSocR: r.name }),
    );
  }
  root.ele(R, 'retenciones:Periodo', {
    MesIni: month(input.period.mesIni),
    MesFin: month(input.period.mesFin),
    Ejercicio: String(input.period.ejercicio),
  });
  const t = input.totals;
  const totales = root.ele(
    R,
    'retenciones:Totales',
    present({
      MontoTotOperacion: totals.montoTotOperacion,
      MontoTotGrav: totals.montoTotGrav,
      MontoTotExent: totals.montoTotExent,
      MontoTotRet: totals.montoTotRet,
      UtilidadBimestral: t.utilidadBimestral === undefined ? undefined : money(t.utilidadBimestral),
      ISRCorrespondiente: t.isrCorrespondiente === undefined ? undefined : money(t.isrCorrespondiente),
    }),
  );
  for (const w of input.withholdings ?? []) {
    totales.ele(
      R,
      'retenciones:ImpRetenidos',
      present({
        BaseRet: w.baseRet === undefined ? undefined : money(w.baseRet),
        ImpuestoRet: w.impuestoRet,
        MontoRet: money(w.montoRet),
        TipoPagoRet: w.tipoPagoRet,
      }),
    );
  }
  return { xml: serializeDocument(root), totals };
}
