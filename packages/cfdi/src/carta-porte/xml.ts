import type { XmlElement } from '../xml/builder';
import { NS } from '../xml/dom';
import { xmlText } from '../xml/text';
import { computeCartaPorte, type ComputedCartaPorte } from './compute';
import type { CartaPorteInput, CpDomicilio } from './types';

export const CARTA_PORTE_NAMESPACE = {
  prefix: 'cartaporte31',
  uri: NS.cartaporte31,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/CartaPorte/CartaPorte31.xsd',
};

const C = NS.cartaporte31;
type Attrs = Record<string, string | undefined>;
const defined = (a: Attrs): Record<string, string> =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as Record<string, string>;
const text = (label: string, v: string | undefined) => (v === undefined ? undefined : xmlText(label, v));

function domicilio(parent: XmlElement, d: CpDomicilio, label: string): void {
  parent.ele(
    C,
    'cartaporte31:Domicilio',
    defined({
      Calle: text(`${label}.calle`, d.calle),
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
 * cartaporte31:CartaPorte in XSD order (Ubicaciones, Mercancias with Autotransporte, FiguraTransporte) for national
 * motor transport; returns what was computed (TotalDistRec, PesoBrutoTotal, NumTotalMercancias, IDUbicacion).
 */
export function addCartaPorte(complemento: XmlElement, cp: CartaPorteInput): ComputedCartaPorte {
  const computed = computeCartaPorte(cp);
  const root = complemento.ele(C, 'cartaporte31:CartaPorte', {
    Version: '3.1',
    IdCCP: cp.idCCP,
    TranspInternac: 'No',
    TotalDistRec: computed.totalDistRec,
  });
  const ubicaciones = root.ele(C, 'cartaporte31:Ubicaciones');
  cp.ubicaciones.forEach((u, i) => {
    const label = `cartaPorte.ubicaciones[${i}]`;
    const el = ubicaciones.ele(
      C,
      'cartaporte31:Ubicacion',
      defined({
        TipoUbicacion: u.tipo,
        IDUbicacion: computed.idsUbicacion[i],
        RFCRemitenteDestinatario: u.rfc,
        NombreRemitenteDestinatario: text(`${label}.nombre`, u.nombre),
        NumRegIdTrib: text(`${label}.numRegIdTrib`, u.numRegIdTrib),
        ResidenciaFiscal: u.residenciaFiscal,
        FechaHoraSalidaLlegada: u.fechaHora,
        DistanciaRecorrida: u.distanciaRecorrida,
      }),
    );
    domicilio(el, u.domicilio, `${label}.domicilio`);
  });
  const mercancias = root.ele(C, 'cartaporte31:Mercancias', {
    PesoBrutoTotal: computed.pesoBrutoTotal,
    UnidadPeso: 'KGM',
    NumTotalMercancias: computed.numTotalMercancias,
  });
  cp.mercancias.forEach((m, i) => {
    const label = `cartaPorte.mercancias[${i}]`;
    mercancias.ele(
      C,
      'cartaporte31:Mercancia',
      defined({
        BienesTransp: m.bienesTransp,
        Descripcion: xmlText(`${label}.descripcion`, m.descripcion),
        Cantidad: m.cantidad,
        ClaveUnidad: m.claveUnidad,
        Unidad: text(`${label}.unidad`, m.unidad),
        Dimensiones: m.dimensiones,
        MaterialPeligroso: m.materialPeligroso === undefined ? undefined : m.materialPeligroso ? 'Sí' : 'No',
        CveMaterialPeligroso: m.cveMaterialPeligroso,
        Embalaje: m.embalaje,
        DescripEmbalaje: text(`${label}.descripEmbalaje`, m.descripEmbalaje),
        PesoEnKg: m.pesoEnKg,
        ValorMercancia: m.valorMercancia,
        Moneda: m.moneda,
      }),
    );
  });
  const a = cp.autotransporte;
  const auto = mercancias.ele(C, 'cartaporte31:Autotransporte', {
    PermSCT: a.permSCT,
    NumPermisoSCT: xmlText('cartaPorte.autotransporte.numPermisoSCT', a.numPermisoSCT),
  });
  auto.ele(C, 'cartaporte31:IdentificacionVehicular', {
    ConfigVehicular: a.configVehicular,
    PesoBrutoVehicular: a.pesoBrutoVehicular,
    PlacaVM: a.placaVM,
    AnioModeloVM: String(a.anioModeloVM),
  });
  const s = a.seguros;
  const seguros = 'cartaPorte.autotransporte.seguros';
  auto.ele(
    C,
    'cartaporte31:Seguros',
    defined({
      AseguraRespCivil: xmlText(`${seguros}.aseguraRespCivil`, s.aseguraRespCivil),
      PolizaRespCivil: xmlText(`${seguros}.polizaRespCivil`, s.polizaRespCivil),
      AseguraMedAmbiente: text(`${seguros}.aseguraMedAmbiente`, s.aseguraMedAmbiente),
      PolizaMedAmbiente: text(`${seguros}.polizaMedAmbiente`, s.polizaMedAmbiente),
      AseguraCarga: text(`${seguros}.aseguraCarga`, s.aseguraCarga),
      PolizaCarga: text(`${seguros}.polizaCarga`, s.polizaCarga),
      PrimaSeguro: s.primaSeguro,
    }),
  );
  if (a.remolques && a.remolques.length > 0) {
    const remolques = auto.ele(C, 'cartaporte31:Remolques');
    for (const r of a.remolques)
      remolques.ele(C, 'cartaporte31:Remolque', { SubTipoRem: r.subTipoRem, Placa: r.placa });
  }
  const figura = root.ele(C, 'cartaporte31:FiguraTransporte');
  cp.figuras.forEach((f, i) => {
    const label = `cartaPorte.figuras[${i}]`;
    const el = figura.ele(
      C,
      'cartaporte31:TiposFigura',
      defined({
        TipoFigura: f.tipoFigura,
        RFCFigura: f.rfc,
        NumLicencia: text(`${label}.numLicencia`, f.numLicencia),
        NombreFigura: xmlText(`${label}.nombre`, f.nombre),
        NumRegIdTribFigura: text(`${label}.numRegIdTrib`, f.numRegIdTrib),
        ResidenciaFiscalFigura: f.residenciaFiscal,
      }),
    );
    for (const p of f.partesTransporte ?? [])
      el.ele(C, 'cartaporte31:PartesTransporte', { ParteTransporte: p });
    if (f.domicilio) domicilio(el, f.domicilio, `${label}.domicilio`);
  });
  return computed;
}
