import type { XmlElement } from '../xml/builder';
import { NS } from '../xml/dom';
import { addDomicilio, definedAttrs, optionalText } from '../xml/complement-address';
import { xmlText } from '../xml/text';
import { computeCartaPorte, type ComputedCartaPorte } from './compute';
import type { CartaPorteInput } from './types';

export const CARTA_PORTE_NAMESPACE = {
  prefix: 'cartaporte31',
  uri: NS.cartaporte31,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/CartaPorte/CartaPorte31.xsd',
};

const C = NS.cartaporte31;
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
      definedAttrs({
        TipoUbicacion: u.tipo,
        IDUbicacion: computed.idsUbicacion[i],
        RFCRemitenteDestinatario: u.rfc,
        NombreRemitenteDestinatario: optionalText(`${label}.nombre`, u.nombre),
        NumRegIdTrib: optionalText(`${label}.numRegIdTrib`, u.numRegIdTrib),
        ResidenciaFiscal: u.residenciaFiscal,
        FechaHoraSalidaLlegada: u.fechaHora,
        DistanciaRecorrida: u.distanciaRecorrida,
      }),
    );
    addDomicilio(el, C, 'cartaporte31:Domicilio', u.domicilio, `${label}.domicilio`);
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
      definedAttrs({
        BienesTransp: m.bienesTransp,
        Descripcion: xmlText(`${label}.descripcion`, m.descripcion),
        Cantidad: m.cantidad,
        ClaveUnidad: m.claveUnidad,
        Unidad: optionalText(`${label}.unidad`, m.unidad),
        Dimensiones: m.dimensiones,
        MaterialPeligroso: m.materialPeligroso === undefined ? undefined : m.materialPeligroso ? 'Sí' : 'No',
        CveMaterialPeligroso: m.cveMaterialPeligroso,
        Embalaje: m.embalaje,
        DescripEmbalaje: optionalText(`${label}.descripEmbalaje`, m.descripEmbalaje),
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
    definedAttrs({
      AseguraRespCivil: xmlText(`${seguros}.aseguraRespCivil`, s.aseguraRespCivil),
      PolizaRespCivil: xmlText(`${seguros}.polizaRespCivil`, s.polizaRespCivil),
      AseguraMedAmbiente: optionalText(`${seguros}.aseguraMedAmbiente`, s.aseguraMedAmbiente),
      PolizaMedAmbiente: optionalText(`${seguros}.polizaMedAmbiente`, s.polizaMedAmbiente),
      AseguraCarga: optionalText(`${seguros}.aseguraCarga`, s.aseguraCarga),
      PolizaCarga: optionalText(`${seguros}.polizaCarga`, s.polizaCarga),
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
      definedAttrs({
        TipoFigura: f.tipoFigura,
        RFCFigura: f.rfc,
        NumLicencia: optionalText(`${label}.numLicencia`, f.numLicencia),
        NombreFigura: xmlText(`${label}.nombre`, f.nombre),
        NumRegIdTribFigura: optionalText(`${label}.numRegIdTrib`, f.numRegIdTrib),
        ResidenciaFiscalFigura: f.residenciaFiscal,
      }),
    );
    for (const p of f.partesTransporte ?? [])
      el.ele(C, 'cartaporte31:PartesTransporte', { ParteTransporte: p });
    if (f.domicilio) addDomicilio(el, C, 'cartaporte31:Domicilio', f.domicilio, `${label}.domicilio`);
  });
  return computed;
}
