import { NS } from '../xml/dom';
import { kids, type XmlNode } from '../cadena/tree';
import type { CadenaWriter } from '../cadena/writer';

const C = NS.cartaporte31;
const DOMICILIO = [
  'Calle?',
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
const MERCANCIA = [
  'BienesTransp',
  'ClaveSTCC?',
  'Descripcion',
  'Cantidad',
  'ClaveUnidad',
  'Unidad?',
  'Dimensiones?',
  'MaterialPeligroso?',
  'CveMaterialPeligroso?',
  'Embalaje?',
  'DescripEmbalaje?',
  'SectorCOFEPRIS?',
  'NombreIngredienteActivo?',
  'NomQuimico?',
  'DenominacionGenericaProd?',
  'DenominacionDistintivaProd?',
  'Fabricante?',
  'FechaCaducidad?',
  'LoteMedicamento?',
  'FormaFarmaceutica?',
  'CondicionesEspTransp?',
  'RegistroSanitarioFolioAutorizacion?',
  'PermisoImportacion?',
  'FolioImpoVUCEM?',
  'NumCAS?',
  'RazonSocialEmpImp?',
  'NumRegSanPlagCOFEPRIS?',
  'DatosFabricante?',
  'DatosFormulador?',
  'DatosMaquilador?',
  'UsoAutorizado?',
  'PesoEnKg',
  'ValorMercancia?',
  'Moneda?',
  'FraccionArancelaria?',
  'UUIDComercioExt?',
  'TipoMateria?',
  'DescripcionMateria?',
];

/**
 * Mirrors CartaPorte31.xslt template by template, every transport included (maritime, air and rail too), so a
 * document this engine reads back gets the SAT's cadena whatever it carries.
 */
export function writeCartaPorte31(w: CadenaWriter, el: XmlNode): void {
  w.fields(el, [
    'Version',
    'IdCCP',
    'TranspInternac',
    'EntradaSalidaMerc?',
    'PaisOrigenDestino?',
    'ViaEntradaSalida?',
    'TotalDistRec?',
    'RegistroISTMO?',
    'UbicacionPoloOrigen?',
    'UbicacionPoloDestino?',
  ]);
  for (const r of kids(el, C, 'RegimenesAduaneros'))
    for (const x of kids(r, C, 'RegimenAduaneroCCP')) w.req(x, 'RegimenAduanero');
  for (const us of kids(el, C, 'Ubicaciones'))
    for (const u of kids(us, C, 'Ubicacion')) {
      w.fields(u, [
        'TipoUbicacion',
        'IDUbicacion?',
        'RFCRemitenteDestinatario',
        'NombreRemitenteDestinatario?',
        'NumRegIdTrib?',
        'ResidenciaFiscal?',
        'NumEstacion?',
        'NombreEstacion?',
        'NavegacionTrafico?',
        'FechaHoraSalidaLlegada',
        'TipoEstacion?',
        'DistanciaRecorrida?',
      ]);
      for (const d of kids(u, C, 'Domicilio')) w.fields(d, DOMICILIO);
    }
  for (const ms of kids(el, C, 'Mercancias')) writeMercancias(w, ms);
  for (const f of kids(el, C, 'FiguraTransporte'))
    for (const t of kids(f, C, 'TiposFigura')) {
      w.fields(t, [
        'TipoFigura',
        'RFCFigura?',
        'NumLicencia?',
        'NombreFigura',
        'NumRegIdTribFigura?',
        'ResidenciaFiscalFigura?',
      ]);
      for (const p of kids(t, C, 'PartesTransporte')) w.req(p, 'ParteTransporte');
      for (const d of kids(t, C, 'Domicilio')) w.fields(d, DOMICILIO);
    }
}

function writeMercancias(w: CadenaWriter, ms: XmlNode): void {
  w.fields(ms, [
    'PesoBrutoTotal',
    'UnidadPeso',
    'PesoNetoTotal?',
    'NumTotalMercancias',
    'CargoPorTasacion?',
    'LogisticaInversaRecoleccionDevolucion?',
  ]);
  for (const m of kids(ms, C, 'Mercancia')) {
    w.fields(m, MERCANCIA);
    for (const d of kids(m, C, 'DocumentacionAduanera'))
      w.fields(d, ['TipoDocumento', 'NumPedimento?', 'IdentDocAduanero?', 'RFCImpo?']);
    for (const g of kids(m, C, 'GuiasIdentificacion'))
      w.fields(g, ['NumeroGuiaIdentificacion', 'DescripGuiaIdentificacion', 'PesoGuiaIdentificacion']);
    for (const c of kids(m, C, 'CantidadTransporta'))
      w.fields(c, ['Cantidad', 'IDOrigen', 'IDDestino', 'CvesTransporte?']);
    for (const d of kids(m, C, 'DetalleMercancia'))
      w.fields(d, ['UnidadPesoMerc', 'PesoBruto', 'PesoNeto', 'PesoTara', 'NumPiezas?']);
  }
  for (const a of kids(ms, C, 'Autotransporte')) {
    w.fields(a, ['PermSCT', 'NumPermisoSCT']);
    for (const v of kids(a, C, 'IdentificacionVehicular'))
      w.fields(v, ['ConfigVehicular', 'PesoBrutoVehicular', 'PlacaVM', 'AnioModeloVM']);
    for (const s of kids(a, C, 'Seguros'))
      w.fields(s, [
        'AseguraRespCivil',
        'PolizaRespCivil',
        'AseguraMedAmbiente?',
        'PolizaMedAmbiente?',
        'AseguraCarga?',
        'PolizaCarga?',
        'PrimaSeguro?',
      ]);
    for (const rs of kids(a, C, 'Remolques'))
      for (const r of kids(rs, C, 'Remolque')) w.fields(r, ['SubTipoRem', 'Placa']);
  }
  for (const t of kids(ms, C, 'TransporteMaritimo')) {
    w.fields(t, [
      'PermSCT?',
      'NumPermisoSCT?',
      'NombreAseg?',
      'NumPolizaSeguro?',
      'TipoEmbarcacion',
      'Matricula',
      'NumeroOMI',
      'AnioEmbarcacion?',
      'NombreEmbarc?',
      'NacionalidadEmbarc',
      'UnidadesDeArqBruto',
      'TipoCarga',
      'Eslora?',
      'Manga?',
      'Calado?',
      'Puntal?',
      'LineaNaviera?',
      'NombreAgenteNaviero',
      'NumAutorizacionNaviero',
      'NumViaje?',
      'NumConocEmbarc?',
      'PermisoTempNavegacion?',
    ]);
    for (const c of kids(t, C, 'Contenedor')) {
      w.fields(c, [
        'TipoContenedor',
        'MatriculaContenedor?',
        'NumPrecinto?',
        'IdCCPRelacionado?',
        'PlacaVMCCP?',
        'FechaCertificacionCCP?',
      ]);
      for (const rs of kids(c, C, 'RemolquesCCP'))
        for (const r of kids(rs, C, 'RemolqueCCP')) w.fields(r, ['SubTipoRemCCP', 'PlacaCCP']);
    }
  }
  for (const t of kids(ms, C, 'TransporteAereo'))
    w.fields(t, [
      'PermSCT',
      'NumPermisoSCT',
      'MatriculaAeronave?',
      'NombreAseg?',
      'NumPolizaSeguro?',
      'NumeroGuia',
      'LugarContrato?',
      'CodigoTransportista',
      'RFCEmbarcador?',
      'NumRegIdTribEmbarc?',
      'ResidenciaFiscalEmbarc?',
      'NombreEmbarcador?',
    ]);
  for (const t of kids(ms, C, 'TransporteFerroviario')) {
    w.fields(t, ['TipoDeServicio', 'TipoDeTrafico', 'NombreAseg?', 'NumPolizaSeguro?']);
    for (const d of kids(t, C, 'DerechosDePaso')) w.fields(d, ['TipoDerechoDePaso', 'KilometrajePagado']);
    for (const c of kids(t, C, 'Carro')) {
      w.fields(c, ['TipoCarro', 'MatriculaCarro', 'GuiaCarro', 'ToneladasNetasCarro']);
      for (const k of kids(c, C, 'Contenedor'))
        w.fields(k, ['TipoContenedor', 'PesoContenedorVacio', 'PesoNetoMercancia']);
    }
  }
}
