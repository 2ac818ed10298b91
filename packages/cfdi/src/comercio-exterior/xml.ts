import type { XmlElement } from '../xml/builder';
import { NS } from '../xml/dom';
import { xmlText } from '../xml/text';
import type { CceDomicilio, ComercioExteriorInput } from '../types';
import { computeComercioExterior } from './compute';

export const COMERCIO_EXTERIOR_NAMESPACE = {
  prefix: 'cce20',
  uri: NS.cce20,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/ComercioExterior20/ComercioExterior20.xsd',
};

const C = NS.cce20;
type Attrs = Record<string, string | undefined>;
const defined = (a: Attrs): Record<string, string> =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as Record<string, string>;
const text = (label: string, v: string | undefined) => (v === undefined ? undefined : xmlText(label, v));

function domicilio(parent: XmlElement, d: CceDomicilio, label: string): void {
  parent.ele(
    C,
    'cce20:Domicilio',
    defined({
      Calle: xmlText(`${label}.calle`, d.calle),
      NumeroExterior: text(`${label}.numeroExterior`, d.numeroExterior),
      NumeroInterior: text(`${label}.numeroInterior`, d.numeroInterior),
      Colonia: text(`${label}.colonia`, d.colonia),
      Localidad: text(`${label}.localidad`, d.localidad),
      Referencia: text(`${label}.referencia`, d.referencia),
      Municipio: text(`${label}.municipio`, d.municipio),
      Estado: xmlText(`${label}.estado`, d.estado),
      Pais: d.pais,
      CodigoPostal: xmlText(`${label}.codigoPostal`, d.codigoPostal),
    }),
  );
}

/**
 * cce20:ComercioExterior in XSD order (Emisor, Receptor, Destinatario*, Mercancias) for a definitive export with
 * ClaveDePedimento A1 (the only key of c_ClavePedimento); returns the computed TotalUSD.
 */
export function addComercioExterior(complemento: XmlElement, cce: ComercioExteriorInput): string {
  const computed = computeComercioExterior(cce);
  const root = complemento.ele(
    C,
    'cce20:ComercioExterior',
    defined({
      Version: '2.0',
      ClaveDePedimento: 'A1',
      CertificadoOrigen: cce.numCertificadoOrigen !== undefined ? '1' : '0',
      NumCertificadoOrigen: text('comercioExterior.numCertificadoOrigen', cce.numCertificadoOrigen),
      NumeroExportadorConfiable: text(
        'comercioExterior.numeroExportadorConfiable',
        cce.numeroExportadorConfiable,
      ),
      Incoterm: cce.incoterm,
      Observaciones: text('comercioExterior.observaciones', cce.observaciones),
      TipoCambioUSD: computed.tipoCambioUSD,
      TotalUSD: computed.totalUSD,
    }),
  );
  const emisor = root.ele(C, 'cce20:Emisor', defined({ Curp: cce.emisor.curp }));
  domicilio(emisor, { ...cce.emisor.domicilio, pais: 'MEX' }, 'comercioExterior.emisor.domicilio');
  domicilio(root.ele(C, 'cce20:Receptor'), cce.receptor.domicilio, 'comercioExterior.receptor.domicilio');
  (cce.destinatarios ?? []).forEach((d, i) => {
    const el = root.ele(
      C,
      'cce20:Destinatario',
      defined({
        NumRegIdTrib: text(`comercioExterior.destinatarios[${i}].numRegIdTrib`, d.numRegIdTrib),
        Nombre: text(`comercioExterior.destinatarios[${i}].nombre`, d.nombre),
      }),
    );
    d.domicilios.forEach((dom, j) =>
      domicilio(el, dom, `comercioExterior.destinatarios[${i}].domicilios[${j}]`),
    );
  });
  const mercancias = root.ele(C, 'cce20:Mercancias');
  cce.mercancias.forEach((m, i) => {
    mercancias.ele(
      C,
      'cce20:Mercancia',
      defined({
        NoIdentificacion: xmlText(`comercioExterior.mercancias[${i}].noIdentificacion`, m.noIdentificacion),
        FraccionArancelaria: m.fraccionArancelaria,
        CantidadAduana: m.cantidadAduana,
        UnidadAduana: m.unidadAduana,
        ValorUnitarioAduana: m.valorUnitarioAduana,
        ValorDolares: computed.valorDolares[i]!,
      }),
    );
  });
  return computed.totalUSD;
}
