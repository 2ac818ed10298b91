import { computeInvoice } from '../tax/compute-invoice';
import type { ComputedInvoice } from '../tax/computed';
import type { BuildOptions, CreditNoteInput, InvoiceInput, Receiver } from '../types';
import {
  addConceptos,
  addEmisor,
  addImpuestos,
  addReceptor,
  addRelacionados,
  headerAttributes,
  serialize,
  startComprobante,
} from './comprobante';
import { addCartaPorte, CARTA_PORTE_NAMESPACE } from '../carta-porte/xml';
import { addComercioExterior, COMERCIO_EXTERIOR_NAMESPACE } from '../comercio-exterior/xml';
import { NS } from './dom';
import { assertInvoiceRules } from './invoice-rules';
import { PUBLICO_EN_GENERAL } from './publico-en-general';

export interface BuiltDocument {
  /** Unsigned XML: pass it to sealXml. */
  xml: string;
  computed: ComputedInvoice;
}

/** Receptor of a global invoice (cfdi40.md §1.3): generic RFC, domicile = LugarExpedicion, 616. */
export function globalReceiver(issuerZip: string): Receiver {
  return { rfc: PUBLICO_EN_GENERAL.rfc, name: PUBLICO_EN_GENERAL.name, zip: issuerZip, regimenFiscal: '616' };
}

/** The header and amounts an income invoice and a credit note write alike, in XSD order. */
function amountAttributes(
  input: InvoiceInput | CreditNoteInput,
  computed: ComputedInvoice,
  options: BuildOptions,
) {
  return {
    ...headerAttributes(input, options),
    FormaPago: input.formaPago,
    CondicionesDePago: input.condicionesDePago,
    SubTotal: computed.subTotal,
    Descuento: computed.descuento,
    Moneda: input.moneda ?? 'MXN',
    TipoCambio: input.tipoCambio,
    Total: computed.total,
  };
}

/** Income invoice (I), PUE or PPD, nominal or global. */
export function buildInvoiceXml(input: InvoiceInput, options: BuildOptions): BuiltDocument {
  assertInvoiceRules(input);
  const computed = computeInvoice(input);
  const global = input.kind === 'global';
  const receiver = global ? globalReceiver(input.issuer.zip) : input.receiver!;
  const root = startComprobante(
    {
      ...amountAttributes(input, computed, options),
      TipoDeComprobante: 'I',
      Exportacion: input.exportacion,
      MetodoPago: input.metodoPago ?? 'PUE',
      LugarExpedicion: input.issuer.zip,
    },
    [
      ...(input.comercioExterior ? [COMERCIO_EXTERIOR_NAMESPACE] : []),
      ...(input.cartaPorte ? [CARTA_PORTE_NAMESPACE] : []),
    ],
  );
  if (global) {
    const ig = input.informacionGlobal!;
    root.ele(NS.cfdi, 'cfdi:InformacionGlobal', {
      Periodicidad: ig.periodicidad,
      Meses: ig.meses,
      Año: String(ig.anio),
    });
  }
  for (const related of input.relatedDocuments ?? [])
    addRelacionados(root, related.tipoRelacion, related.uuids);
  addEmisor(root, input.issuer);
  addReceptor(root, receiver, global ? 'S01' : (input.usoCfdi ?? 'G03'));
  addConceptos(root, computed.concepts);
  addImpuestos(root, computed.traslados, computed.totalImpuestosTrasladados);
  if (input.comercioExterior || input.cartaPorte) {
    const complemento = root.ele(NS.cfdi, 'cfdi:Complemento');
    if (input.comercioExterior) addComercioExterior(complemento, input.comercioExterior);
    if (input.cartaPorte) addCartaPorte(complemento, input.cartaPorte);
  }
  return { xml: serialize(root), computed };
}

/** Credit note (E) related to income CFDIs with TipoRelacion 01 or 03; always PUE. */
export function buildCreditNoteXml(input: CreditNoteInput, options: BuildOptions): BuiltDocument {
  const computed = computeInvoice(input);
  const root = startComprobante({
    ...amountAttributes(input, computed, options),
    TipoDeComprobante: 'E',
    MetodoPago: 'PUE',
    LugarExpedicion: input.issuer.zip,
  });
  const related = Array.isArray(input.relatedUuid) ? input.relatedUuid : [input.relatedUuid];
  addRelacionados(root, input.tipoRelacion ?? '01', related);
  addEmisor(root, input.issuer);
  addReceptor(root, input.receiver, input.usoCfdi ?? 'G02');
  addConceptos(root, computed.concepts);
  addImpuestos(root, computed.traslados, computed.totalImpuestosTrasladados);
  return { xml: serialize(root), computed };
}
