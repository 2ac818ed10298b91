import { NS } from '../xml/dom';
import { kids, type XmlNode } from '../cadena/tree';
import type { CadenaWriter } from '../cadena/writer';

const C = NS.cce20;
const DOMICILIO = [
  'Calle',
  'NumeroExterior?',
  'NumeroInterior?',
  'Colonia?',
  'Localidad?',
  'Referencia?',
  'Municipio?',
  'Estado',
  'Pais',
  'CodigoPostal',
];

/** Mirrors ComercioExterior20.xslt template by template. */
export function writeComercioExterior20(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'Version',
    'MotivoTraslado?',
    'ClaveDePedimento',
    'CertificadoOrigen',
    'NumCertificadoOrigen?',
    'NumeroExportadorConfiable?',
    'Incoterm?',
    'Observaciones?',
    'TipoCambioUSD',
    'TotalUSD',
  ]);
  for (const emisor of kids(el, C, 'Emisor')) {
    w.opt(emisor, 'Curp');
    for (const d of kids(emisor, C, 'Domicilio')) w.fields(d, DOMICILIO);
  }
  for (const p of kids(el, C, 'Propietario')) w.fields(p, ['NumRegIdTrib', 'ResidenciaFiscal']);
  for (const receptor of kids(el, C, 'Receptor')) {
    w.opt(receptor, 'NumRegIdTrib');
    for (const d of kids(receptor, C, 'Domicilio')) w.fields(d, DOMICILIO);
  }
  for (const dest of kids(el, C, 'Destinatario')) {
    w.fields(dest, ['NumRegIdTrib?', 'Nombre?']);
    for (const d of kids(dest, C, 'Domicilio')) w.fields(d, DOMICILIO);
  }
  for (const mercancias of kids(el, C, 'Mercancias')) {
    for (const m of kids(mercancias, C, 'Mercancia')) {
      w.fields(m, [
        'NoIdentificacion',
        'FraccionArancelaria?',
        'CantidadAduana?',
        'UnidadAduana?',
        'ValorUnitarioAduana?',
        'ValorDolares',
      ]);
      for (const d of kids(m, C, 'DescripcionesEspecificas'))
        w.fields(d, ['Marca', 'Modelo?', 'SubModelo?', 'NumeroSerie?']);
    }
  }
}
