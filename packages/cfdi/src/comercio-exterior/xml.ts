import type { XmlElement } from '../xml/builder';
import { NS } from '../xml/dom';
import { addDomicilio, definedAttrs, optionalText } from '../xml/complement-address';
import { xmlText } from '../xml/text';
import type { ComercioExteriorInput } from '../types';
import { computeComercioExterior } from './compute';

export const COMERCIO_EXTERIOR_NAMESPACE = {
  prefix: 'cce20',
  uri: NS.cce20,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/ComercioExterior20/ComercioExterior20.xsd',
};

const C = NS.cce20;
/**
 * cce20:ComercioExterior in XSD order (Emisor, Receptor, Destinatario*, Mercancias) for a definitive export with
 * ClaveDePedimento A1 (the only key of c_ClavePedimento); returns the computed TotalUSD.
 */
export function addComercioExterior(complemento: XmlElement, cce: ComercioExteriorInput): string {
  const computed = computeComercioExterior(cce);
  const root = complemento.ele(
    C,
    'cce20:ComercioExterior',
    definedAttrs({
      Version: '2.0',
      ClaveDePedimento: 'A1',
      CertificadoOrigen: cce.numCertificadoOrigen !== undefined ? '1' : '0',
      NumCertificadoOrigen: optionalText('comercioExterior.numCertificadoOrigen', cce.numCertificadoOrigen),
      NumeroExportadorConfiable: optionalText(
        'comercioExterior.numeroExportadorConfiable',
        cce.numeroExportadorConfiable,
      ),
      Incoterm: cce.incoterm,
      Observaciones: optionalText('comercioExterior.observaciones', cce.observaciones),
      TipoCambioUSD: computed.tipoCambioUSD,
      TotalUSD: computed.totalUSD,
    }),
  );
  const emisor = root.ele(C, 'cce20:Emisor', definedAttrs({ Curp: cce.emisor.curp }));
  addDomicilio(
    emisor,
    C,
    'cce20:Domicilio',
    { ...cce.emisor.domicilio, pais: 'MEX' },
    'comercioExterior.emisor.domicilio',
  );
  addDomicilio(
    root.ele(C, 'cce20:Receptor'),
    C,
    'cce20:Domicilio',
    cce.receptor.domicilio,
    'comercioExterior.receptor.domicilio',
  );
  (cce.destinatarios ?? []).forEach((d, i) => {
    const el = root.ele(
      C,
      'cce20:Destinatario',
      definedAttrs({
        NumRegIdTrib: optionalText(`comercioExterior.destinatarios[${i}].numRegIdTrib`, d.numRegIdTrib),
        Nombre: optionalText(`comercioExterior.destinatarios[${i}].nombre`, d.nombre),
      }),
    );
    d.domicilios.forEach((dom, j) =>
      addDomicilio(el, C, 'cce20:Domicilio', dom, `comercioExterior.destinatarios[${i}].domicilios[${j}]`),
    );
  });
  const mercancias = root.ele(C, 'cce20:Mercancias');
  cce.mercancias.forEach((m, i) => {
    mercancias.ele(
      C,
      'cce20:Mercancia',
      definedAttrs({
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
