import { addCartaPorte, CARTA_PORTE_NAMESPACE } from '../carta-porte/xml';
import type { ComputedCartaPorte } from '../carta-porte/compute';
import type { BuildOptions, TrasladoInput } from '../types';
import {
  addEmisor,
  addReceptor,
  addRelacionados,
  headerAttributes,
  NO_AMOUNTS,
  serialize,
  startComprobante,
} from './comprobante';
import { NS } from './dom';
import { xmlText } from './text';

export interface BuiltTraslado {
  /** Unsigned XML: pass it to sealXml. */
  xml: string;
  cartaPorte?: ComputedCartaPorte;
}

/**
 * Traslado CFDI (T) of the issuer's own goods (cfdi40.md §1): Moneda XXX, SubTotal and Total 0, no FormaPago,
 * MetodoPago, Descuento or Impuestos; every concept at ValorUnitario 0 with ObjetoImp 01; the receiver is the issuer
 * itself with UsoCFDI S01; Carta Porte 3.1 when given.
 */
export function buildTrasladoXml(input: TrasladoInput, options: BuildOptions): BuiltTraslado {
  if (input.items.length === 0) throw new RangeError('a traslado needs at least one item');
  const root = startComprobante(
    {
      ...headerAttributes(input, options),
      ...NO_AMOUNTS,
      TipoDeComprobante: 'T',
      LugarExpedicion: input.issuer.zip,
    },
    input.cartaPorte ? CARTA_PORTE_NAMESPACE : undefined,
  );
  for (const related of input.relatedDocuments ?? [])
    addRelacionados(root, related.tipoRelacion, related.uuids);
  addEmisor(root, input.issuer);
  addReceptor(
    root,
    {
      rfc: input.issuer.rfc,
      name: input.issuer.legalName,
      zip: input.issuer.zip,
      regimenFiscal: input.issuer.regimenFiscal,
    },
    'S01',
  );
  const conceptos = root.ele(NS.cfdi, 'cfdi:Conceptos');
  input.items.forEach((item, i) => {
    const concepto: Record<string, string> = { ClaveProdServ: item.productCode };
    if (item.noIdentificacion !== undefined)
      concepto.NoIdentificacion = xmlText(`items[${i}].noIdentificacion`, item.noIdentificacion);
    concepto.Cantidad = item.quantity;
    concepto.ClaveUnidad = item.unitCode;
    if (item.unit !== undefined) concepto.Unidad = xmlText(`items[${i}].unit`, item.unit);
    concepto.Descripcion = xmlText(`items[${i}].description`, item.description);
    concepto.ValorUnitario = '0';
    concepto.Importe = '0';
    concepto.ObjetoImp = '01';
    conceptos.ele(NS.cfdi, 'cfdi:Concepto', concepto);
  });
  const cartaPorte = input.cartaPorte
    ? addCartaPorte(root.ele(NS.cfdi, 'cfdi:Complemento'), input.cartaPorte)
    : undefined;
  return { xml: serialize(root), ...(cartaPorte ? { cartaPorte } : {}) };
}
