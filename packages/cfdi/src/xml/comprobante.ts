import type { ComputedConcept, ComputedGroup } from '../tax/computed';
import { formatFecha } from '../time/fecha';
import type { BuildOptions, Issuer, Receiver } from '../types';
import { createRoot, serializeDocument, type XmlElement } from './builder';
import { NS } from './dom';
import { xmlText } from './text';

const CFDI_SCHEMA = `${NS.cfdi} http://www.sat.gob.mx/sitio_internet/cfd/4/cfdv40.xsd`;

export interface ComplementNamespace {
  prefix: string;
  uri: string;
  schemaLocation: string;
}

/** Comprobante attributes in XSD order; Sello/NoCertificado/Certificado are added by sealXml. */
export interface ComprobanteAttributes {
  Serie?: string;
  Folio?: string;
  Fecha: string;
  FormaPago?: string;
  CondicionesDePago?: string;
  SubTotal: string;
  Descuento?: string;
  Moneda: string;
  /** Required when Moneda is neither MXN nor XXX (CFDI40115). */
  TipoCambio?: string;
  Total: string;
  TipoDeComprobante: 'I' | 'E' | 'T' | 'P' | 'N';
  /** c_Exportacion, default 01 (no aplica); 02 with the Comercio Exterior complement. */
  Exportacion?: string;
  MetodoPago?: string;
  LugarExpedicion: string;
}

type Attrs = Record<string, string | undefined>;

function defined(attrs: Attrs): Record<string, string> {
  return Object.fromEntries(Object.entries(attrs).filter(([, v]) => v !== undefined)) as Record<
    string,
    string
  >;
}

export function folioOf(header: { folio?: number; folioText?: string }): string | undefined {
  if (header.folioText !== undefined && header.folioText !== '') return header.folioText;
  return header.folio !== undefined ? String(header.folio) : undefined;
}

/** Serie, Folio and Fecha as every document writes them: its header's serie and folio, stamped at the build time. */
export function headerAttributes(
  header: { serie?: string; folio?: number; folioText?: string },
  options: BuildOptions,
): Pick<ComprobanteAttributes, 'Serie' | 'Folio' | 'Fecha'> {
  return { Serie: header.serie, Folio: folioOf(header), Fecha: formatFecha(options.now, options.timeZone) };
}

/** The amounts of a document that carries none (payment complement, traslado): SubTotal and Total 0 in XXX. */
export const NO_AMOUNTS = { SubTotal: '0', Moneda: 'XXX', Total: '0' } as const;

export function startComprobante(
  a: ComprobanteAttributes,
  complement?: ComplementNamespace | readonly ComplementNamespace[],
): XmlElement {
  const complements = complement === undefined ? [] : Array.isArray(complement) ? complement : [complement];
  return createRoot(
    NS.cfdi,
    'cfdi:Comprobante',
    defined({
      'xmlns:xsi': NS.xsi,
      ...Object.fromEntries(complements.map((c) => [`xmlns:${c.prefix}`, c.uri])),
      'xsi:schemaLocation': [CFDI_SCHEMA, ...complements.map((c) => `${c.uri} ${c.schemaLocation}`)].join(
        ' ',
      ),
      Version: '4.0',
      Serie: a.Serie !== undefined ? xmlText('serie', a.Serie) : undefined,
      Folio: a.Folio !== undefined ? xmlText('folio', a.Folio) : undefined,
      Fecha: a.Fecha,
      FormaPago: a.FormaPago,
      CondicionesDePago:
        a.CondicionesDePago !== undefined ? xmlText('condicionesDePago', a.CondicionesDePago) : undefined,
      SubTotal: a.SubTotal,
      Descuento: a.Descuento,
      Moneda: a.Moneda,
      TipoCambio: a.TipoCambio,
      Total: a.Total,
      TipoDeComprobante: a.TipoDeComprobante,
      Exportacion: a.Exportacion ?? '01',
      MetodoPago: a.MetodoPago,
      LugarExpedicion: a.LugarExpedicion,
    }),
  );
}

export function addRelacionados(root: XmlElement, tipoRelacion: string, uuids: readonly string[]): void {
  const rel = root.ele(NS.cfdi, 'cfdi:CfdiRelacionados', { TipoRelacion: tipoRelacion });
  for (const uuid of uuids) rel.ele(NS.cfdi, 'cfdi:CfdiRelacionado', { UUID: uuid.toUpperCase() });
}

export function addEmisor(root: XmlElement, issuer: Issuer): void {
  root.ele(NS.cfdi, 'cfdi:Emisor', {
    Rfc: issuer.rfc,
    Nombre: xmlText('issuer.legalName', issuer.legalName),
    RegimenFiscal: issuer.regimenFiscal,
  });
}

export function addReceptor(root: XmlElement, receiver: Receiver, usoCfdi: string): void {
  root.ele(
    NS.cfdi,
    'cfdi:Receptor',
    defined({
      Rfc: receiver.rfc,
      Nombre: xmlText('receiver.name', receiver.name),
      DomicilioFiscalReceptor: receiver.zip,
      ResidenciaFiscal: receiver.residenciaFiscal,
      NumRegIdTrib:
        receiver.numRegIdTrib !== undefined
          ? xmlText('receiver.numRegIdTrib', receiver.numRegIdTrib)
          : undefined,
      RegimenFiscalReceptor: receiver.regimenFiscal,
      UsoCFDI: usoCfdi,
    }),
  );
}

export function addConceptos(root: XmlElement, concepts: readonly ComputedConcept[]): void {
  const conceptos = root.ele(NS.cfdi, 'cfdi:Conceptos');
  concepts.forEach((c, i) => {
    const concepto = conceptos.ele(
      NS.cfdi,
      'cfdi:Concepto',
      defined({
        ClaveProdServ: c.claveProdServ,
        NoIdentificacion:
          c.noIdentificacion !== undefined
            ? xmlText(`items[${i}].noIdentificacion`, c.noIdentificacion)
            : undefined,
        Cantidad: c.cantidad,
        ClaveUnidad: c.claveUnidad,
        Unidad: c.unidad !== undefined ? xmlText(`items[${i}].unit`, c.unidad) : undefined,
        Descripcion: xmlText(`items[${i}].description`, c.descripcion),
        ValorUnitario: c.valorUnitario,
        Importe: c.importe,
        Descuento: c.descuento,
        ObjetoImp: c.objetoImp,
      }),
    );
    if (c.traslados.length > 0) {
      const traslados = concepto.ele(NS.cfdi, 'cfdi:Impuestos').ele(NS.cfdi, 'cfdi:Traslados');
      for (const t of c.traslados) {
        traslados.ele(
          NS.cfdi,
          'cfdi:Traslado',
          defined({
            Base: t.base,
            Impuesto: t.impuesto,
            TipoFactor: t.tipoFactor,
            TasaOCuota: t.tasaOCuota,
            Importe: t.importe,
          }),
        );
      }
    }
    for (const p of c.pedimentos) concepto.ele(NS.cfdi, 'cfdi:InformacionAduanera', { NumeroPedimento: p });
  });
}

export function addImpuestos(
  root: XmlElement,
  groups: readonly ComputedGroup[],
  totalTrasladados: string | undefined,
): void {
  if (groups.length === 0) return;
  const impuestos = root.ele(
    NS.cfdi,
    'cfdi:Impuestos',
    defined({ TotalImpuestosTrasladados: totalTrasladados }),
  );
  const traslados = impuestos.ele(NS.cfdi, 'cfdi:Traslados');
  for (const g of groups) {
    traslados.ele(
      NS.cfdi,
      'cfdi:Traslado',
      defined({
        Base: g.base,
        Impuesto: g.impuesto,
        TipoFactor: g.tipoFactor,
        TasaOCuota: g.tasaOCuota,
        Importe: g.importe,
      }),
    );
  }
}

export function serialize(root: XmlElement): string {
  return serializeDocument(root);
}
