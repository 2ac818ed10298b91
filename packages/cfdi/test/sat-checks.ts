import type { Element } from '@xmldom/xmldom';
import Decimal from 'decimal.js';
import { attr, children, NS, parseXml, path, rootElement } from '../src/xml/dom';

/**
 * Independent re-implementation of the SAT arithmetic checks (cfdi40.md §1.10, §2.4, §5, §7)
 * over the XML as written. It shares nothing with the tax engine except the DOM helpers.
 */
const D = Decimal.clone({ precision: 50, rounding: Decimal.ROUND_HALF_UP });
type Dec = InstanceType<typeof D>;
const C = NS.cfdi;
const P = NS.pago20;
const N = NS.nomina12;
const CP = NS.cartaporte31;

const decs = (s: string): number => (s.includes('.') ? s.length - s.indexOf('.') - 1 : 0);
const r2 = (v: Dec): Dec => v.toDecimalPlaces(2, D.ROUND_HALF_UP);
const num = (el: Element, name: string): Dec => new D(attr(el, name) ?? 'NaN');

/** Importe band: (Cantidad ± ½ ulp) × (ValorUnitario ± ½ ulp), truncated/ceiled at the written decimals. */
function band(cantidad: string, valor: string, field: string): [Dec, Dec] {
  const places = decs(field);
  const hq = new D(10).pow(-decs(cantidad)).div(2);
  const hv = new D(10).pow(-decs(valor)).div(2);
  const q = new D(cantidad);
  const v = new D(valor);
  return [
    q.minus(hq).times(v.minus(hv)).toDecimalPlaces(places, D.ROUND_DOWN),
    q.plus(hq).minus('1e-12').times(v.plus(hv).minus('1e-12')).toDecimalPlaces(places, D.ROUND_UP),
  ];
}

function taxBand(base: string, rate: string, field: string): [Dec, Dec] {
  const places = decs(field);
  const h = new D(10).pow(-decs(base)).div(2);
  const B = new D(base);
  return [
    B.minus(h).times(rate).toDecimalPlaces(places, D.ROUND_DOWN),
    B.plus(h).minus('1e-12').times(rate).toDecimalPlaces(places, D.ROUND_UP),
  ];
}

const inside = (v: Dec, [lo, hi]: [Dec, Dec]): boolean => v.gte(lo) && v.lte(hi);

/** c_Moneda decimales as cfdi40.md lists them (every other currency has 2). */
const CURRENCY_DECIMALS: Record<string, number> = {
  JPY: 0,
  CLP: 0,
  KRW: 0,
  XXX: 0,
  BHD: 3,
  KWD: 3,
  OMR: 3,
  JOD: 3,
  TND: 3,
  IQD: 3,
  LYD: 3,
  CLF: 4,
};

export function satArithmeticErrors(xml: string): string[] {
  const errors: string[] = [];
  const fail = (msg: string): void => void errors.push(msg);
  const root = rootElement(parseXml(xml));
  const tipo = attr(root, 'TipoDeComprobante');
  const places = CURRENCY_DECIMALS[attr(root, 'Moneda') ?? ''] ?? 2;
  const r2 = (v: Dec): Dec => v.toDecimalPlaces(places, D.ROUND_HALF_UP);
  for (const name of ['SubTotal', 'Descuento', 'Total']) {
    const v = attr(root, name);
    if (v !== undefined && decs(v) > places) fail(`${name} has more than ${places} decimals`);
  }
  const conceptos = path(root, C, 'Conceptos', 'Concepto');
  let sumImporte = new D(0);
  let sumDesc = new D(0);
  let anyDesc = false;
  const groups = new Map<string, { base: Dec; importe: Dec }>();
  conceptos.forEach((c, i) => {
    const imp = attr(c, 'Importe')!;
    if (!inside(new D(imp), band(attr(c, 'Cantidad')!, attr(c, 'ValorUnitario')!, imp)))
      fail(`concept ${i}: Importe outside band`);
    if (tipo !== 'P' && tipo !== 'T' && !num(c, 'ValorUnitario').gt(0))
      fail(`concept ${i}: ValorUnitario not > 0`);
    if (tipo === 'T' && num(c, 'ValorUnitario').isNegative()) fail(`concept ${i}: ValorUnitario < 0`);
    sumImporte = sumImporte.plus(imp);
    const desc = attr(c, 'Descuento');
    let base = new D(imp);
    if (desc !== undefined) {
      anyDesc = true;
      sumDesc = sumDesc.plus(desc);
      if (new D(desc).gt(imp)) fail(`concept ${i}: Descuento > Importe`);
      if (decs(desc) > decs(imp)) fail(`concept ${i}: Descuento has more decimals than Importe`);
      base = base.minus(desc);
    }
    let iepsImporte = new D(0);
    for (const t of path(c, C, 'Impuestos', 'Traslados', 'Traslado')) {
      const tBase = attr(t, 'Base')!;
      if (!new D(tBase).gt(0)) fail(`concept ${i}: traslado Base not > 0`);
      const factor = attr(t, 'TipoFactor');
      const rate = attr(t, 'TasaOCuota');
      const timp = attr(t, 'Importe');
      if (factor === 'Exento') {
        if (rate !== undefined || timp !== undefined) fail(`concept ${i}: Exento with rate or importe`);
      } else if (!inside(new D(timp!), taxBand(tBase, rate!, timp!)))
        fail(`concept ${i}: tax Importe outside band`);
      if (attr(t, 'Impuesto') === '003') {
        iepsImporte = new D(timp!);
        if (!new D(tBase).equals(base)) fail(`concept ${i}: IEPS base != Importe - Descuento`);
      }
      const key = `${attr(t, 'Impuesto')}|${factor}|${rate ?? ''}`;
      const g = groups.get(key) ?? { base: new D(0), importe: new D(0) };
      groups.set(key, { base: g.base.plus(tBase), importe: g.importe.plus(timp ?? 0) });
    }
    for (const t of path(c, C, 'Impuestos', 'Traslados', 'Traslado')) {
      if (attr(t, 'Impuesto') === '002' && !new D(attr(t, 'Base')!).equals(base.plus(iepsImporte)))
        fail(`concept ${i}: IVA base != base + IEPS`);
    }
  });
  if (tipo === 'I' || tipo === 'E' || tipo === 'N') {
    if (!r2(sumImporte).equals(num(root, 'SubTotal'))) fail('SubTotal != round(Σ Importe)');
    if (anyDesc !== (attr(root, 'Descuento') !== undefined)) fail('Descuento presence mismatch');
    if (anyDesc && !r2(sumDesc).equals(num(root, 'Descuento'))) fail('Descuento != round(Σ Descuento)');
  }
  const imp = children(root, C, 'Impuestos')[0];
  let totalTras = new D(0);
  if (imp) {
    const docGroups = path(imp, C, 'Traslados', 'Traslado');
    const seen = new Set<string>();
    for (const t of docGroups) {
      const key = `${attr(t, 'Impuesto')}|${attr(t, 'TipoFactor')}|${attr(t, 'TasaOCuota') ?? ''}`;
      if (seen.has(key)) fail(`duplicate group ${key}`);
      seen.add(key);
      const g = groups.get(key);
      if (!g) fail(`group ${key} has no concepts`);
      else {
        if (!r2(g.base).equals(num(t, 'Base'))) fail(`group ${key}: Base != round(Σ)`);
        if (attr(t, 'TipoFactor') !== 'Exento' && !r2(g.importe).equals(num(t, 'Importe')))
          fail(`group ${key}: Importe != round(Σ)`);
      }
      for (const n of ['Base', 'Importe'])
        if (decs(attr(t, n) ?? '') > places) fail(`group ${key}: ${n} decimals`);
      if (attr(t, 'Importe') !== undefined) totalTras = totalTras.plus(num(t, 'Importe'));
    }
    if (seen.size !== groups.size) fail('concept groups missing at document level');
    const anyTasa = docGroups.some((t) => attr(t, 'TipoFactor') !== 'Exento');
    if (anyTasa !== (attr(imp, 'TotalImpuestosTrasladados') !== undefined))
      fail('TotalImpuestosTrasladados presence');
    if (anyTasa && !totalTras.equals(num(imp, 'TotalImpuestosTrasladados')))
      fail('TotalImpuestosTrasladados != Σ groups');
  } else if (groups.size > 0) fail('concept taxes without document Impuestos');
  if (tipo === 'I' || tipo === 'E' || tipo === 'N') {
    const expected = num(root, 'SubTotal')
      .minus(attr(root, 'Descuento') ?? 0)
      .plus(totalTras);
    if (!expected.equals(num(root, 'Total'))) fail(`Total ${attr(root, 'Total')} != ${expected.toFixed(2)}`);
  }
  if (tipo === 'T') {
    // CFDI40109/40119 and c_Moneda XXX: a traslado without values.
    if (attr(root, 'SubTotal') !== '0' || attr(root, 'Total') !== '0') fail('traslado SubTotal/Total not 0');
    for (const name of ['FormaPago', 'MetodoPago', 'Descuento', 'TipoCambio'])
      if (attr(root, name) !== undefined) fail(`traslado with ${name}`);
    if (imp) fail('traslado with Impuestos');
  }
  const complemento = children(root, C, 'Complemento')[0];
  const cp = complemento && children(complemento, CP, 'CartaPorte')[0];
  if (cp) checkCartaPorte(cp, fail);
  if (tipo === 'P') checkPagos(root, fail);
  if (tipo === 'N') checkNomina(root, fail);
  return errors;
}

/**
 * Pagos 2.0 (cfdi40.md §5.3–§5.5): balances in MonedaDR decimals, EquivalenciaDR 1 exactly when MonedaDR = MonedaP,
 * TipoCambioP 1 exactly with MXN, Monto covering ImpPagado / EquivalenciaDR within the SAT band (CRP20217), the
 * TrasladoP the Σ of the TrasladoDR divided by EquivalenciaDR at the decimals written, the Totales in MXN: each value
 * times TipoCambioP, summed and rounded to 2 decimals.
 */
function checkPagos(root: Element, fail: (m: string) => void): void {
  const pagos = children(children(root, C, 'Complemento')[0]!, P, 'Pagos')[0]!;
  const totales = children(pagos, P, 'Totales')[0]!;
  const sums = new Map<string, Dec>();
  const add = (k: string, v: Dec): void => void sums.set(k, (sums.get(k) ?? new D(0)).plus(v));
  for (const pago of children(pagos, P, 'Pago')) {
    const monedaP = attr(pago, 'MonedaP')!;
    const placesP = CURRENCY_DECIMALS[monedaP] ?? 2;
    const tc = attr(pago, 'TipoCambioP');
    if (monedaP === 'MXN' ? tc !== undefined && !new D(tc).equals(1) : tc === undefined)
      fail(`TipoCambioP ${tc} with MonedaP ${monedaP}`);
    const rate = new D(tc ?? 1);
    const monto = attr(pago, 'Monto')!;
    if (decs(monto) > placesP) fail(`Monto has more than ${placesP} decimals`);
    add('MontoTotalPagos', new D(monto).times(rate));
    let paidLo = new D(0);
    let paidHi = new D(0);
    let paidTrunc = new D(0);
    const drSums = new Map<string, { base: Dec; importe: Dec }>();
    for (const doc of children(pago, P, 'DoctoRelacionado')) {
      const monedaDR = attr(doc, 'MonedaDR')!;
      const placesDR = CURRENCY_DECIMALS[monedaDR] ?? 2;
      const equiv = attr(doc, 'EquivalenciaDR');
      if (monedaDR === monedaP ? equiv !== '1' : equiv === undefined || equiv === '1')
        fail(`EquivalenciaDR ${equiv} with MonedaDR ${monedaDR} and MonedaP ${monedaP}`);
      for (const n of ['ImpSaldoAnt', 'ImpPagado', 'ImpSaldoInsoluto'])
        if (decs(attr(doc, n)!) > placesDR) fail(`${n} has more than ${placesDR} decimals`);
      if (!num(doc, 'ImpSaldoAnt').minus(num(doc, 'ImpPagado')).equals(num(doc, 'ImpSaldoInsoluto')))
        fail('ImpSaldoInsoluto');
      if (num(doc, 'ImpSaldoInsoluto').isNegative()) fail('negative saldo');
      const paid = attr(doc, 'ImpPagado')!;
      const e = new D(equiv ?? 1);
      const he = new D(10).pow(-(equiv === '1' ? 10 : decs(equiv ?? '1'))).div(2);
      const hp = new D(10).pow(-decs(paid)).div(2);
      paidTrunc = paidTrunc.plus(new D(paid).div(e));
      paidLo = paidLo.plus(new D(paid).minus(hp).div(e.plus(he)).toDecimalPlaces(placesP, D.ROUND_DOWN));
      paidHi = paidHi.plus(new D(paid).plus(hp).div(e.minus(he)).toDecimalPlaces(placesP, D.ROUND_UP));
      for (const t of path(doc, P, 'ImpuestosDR', 'TrasladosDR', 'TrasladoDR')) {
        if (!num(t, 'BaseDR').gt(0)) fail('BaseDR not > 0');
        const imp = attr(t, 'ImporteDR');
        if (
          imp !== undefined &&
          !inside(new D(imp), taxBand(attr(t, 'BaseDR')!, attr(t, 'TasaOCuotaDR')!, imp))
        )
          fail('ImporteDR outside band');
        const k = `${attr(t, 'ImpuestoDR')}|${attr(t, 'TipoFactorDR')}|${attr(t, 'TasaOCuotaDR') ?? ''}`;
        const s = drSums.get(k) ?? { base: new D(0), importe: new D(0) };
        drSums.set(k, {
          base: s.base.plus(num(t, 'BaseDR').div(e)),
          importe: s.importe.plus(new D(imp ?? 0).div(e)),
        });
      }
    }
    const m = new D(monto);
    if (!paidTrunc.toDecimalPlaces(placesP, D.ROUND_DOWN).lte(m) && !(paidLo.lte(m) && m.lte(paidHi)))
      fail(`Monto ${monto} below Σ ImpPagado / EquivalenciaDR (CRP20217)`);
    for (const t of path(pago, P, 'ImpuestosP', 'TrasladosP', 'TrasladoP')) {
      const rateP = attr(t, 'TasaOCuotaP');
      const k = `${attr(t, 'ImpuestoP')}|${attr(t, 'TipoFactorP')}|${rateP ?? ''}`;
      const dr = drSums.get(k);
      const baseP = attr(t, 'BaseP')!;
      if (!dr || !dr.base.toDecimalPlaces(decs(baseP), D.ROUND_HALF_UP).equals(baseP))
        fail(`TrasladoP ${k}: BaseP ${baseP} != Σ BaseDR / EquivalenciaDR`);
      const impP = attr(t, 'ImporteP');
      if (dr && impP !== undefined && !dr.importe.toDecimalPlaces(decs(impP), D.ROUND_HALF_UP).equals(impP))
        fail(`TrasladoP ${k}: ImporteP ${impP} != Σ ImporteDR / EquivalenciaDR`);
      if (attr(t, 'ImpuestoP') !== '002') continue;
      if (attr(t, 'TipoFactorP') === 'Exento') add('TotalTrasladosBaseIVAExento', new D(baseP).times(rate));
      else {
        const suffix = { '0.160000': 'IVA16', '0.080000': 'IVA8', '0.000000': 'IVA0' }[rateP!]!;
        add(`TotalTrasladosBase${suffix}`, new D(baseP).times(rate));
        add(`TotalTrasladosImpuesto${suffix}`, new D(impP!).times(rate));
      }
    }
  }
  for (const [k, v] of sums)
    if (!v.toDecimalPlaces(2, D.ROUND_HALF_UP).equals(num(totales, k))) fail(`Totales ${k}`);
}

function checkNomina(root: Element, fail: (m: string) => void): void {
  const nom = children(children(root, C, 'Complemento')[0]!, N, 'Nomina')[0]!;
  const sumOf = (els: Element[], name: string): Dec => els.reduce((a, e) => a.plus(num(e, name)), new D(0));
  const perc = children(nom, N, 'Percepciones')[0];
  const tp = perc ? num(perc, 'TotalGravado').plus(num(perc, 'TotalExento')) : new D(0);
  if (perc) {
    const items = children(perc, N, 'Percepcion');
    if (!sumOf(items, 'ImporteGravado').equals(num(perc, 'TotalGravado'))) fail('TotalGravado');
    if (!sumOf(items, 'ImporteExento').equals(num(perc, 'TotalExento'))) fail('TotalExento');
    // NOM185-NOM188: each total covers its percepción types, absent when it covers none.
    const byTypes = (types: string[] | null, name: string) => {
      const of = items.filter((p) =>
        types
          ? types.includes(attr(p, 'TipoPercepcion')!)
          : !['022', '023', '025', '039', '044'].includes(attr(p, 'TipoPercepcion')!),
      );
      const total = attr(perc, name);
      if (
        of.length === 0
          ? total !== undefined
          : total === undefined ||
            !new D(total).equals(sumOf(of, 'ImporteGravado').plus(sumOf(of, 'ImporteExento')))
      )
        fail(name);
      return total === undefined ? new D(0) : new D(total);
    };
    const parts = byTypes(null, 'TotalSueldos')
      .plus(byTypes(['022', '023', '025'], 'TotalSeparacionIndemnizacion'))
      .plus(byTypes(['039', '044'], 'TotalJubilacionPensionRetiro'));
    if (!parts.equals(tp) || !num(nom, 'TotalPercepciones').equals(tp)) fail('TotalPercepciones');
    const sep = children(perc, N, 'SeparacionIndemnizacion')[0];
    if (sep && !num(sep, 'TotalPagado').equals(num(perc, 'TotalSeparacionIndemnizacion')))
      fail('SeparacionIndemnizacion TotalPagado');
  }
  const ded = children(nom, N, 'Deducciones')[0];
  const td = ded ? sumOf(children(ded, N, 'Deduccion'), 'Importe') : new D(0);
  if (ded && !num(nom, 'TotalDeducciones').equals(td)) fail('TotalDeducciones');
  if (ded) {
    const isr = children(ded, N, 'Deduccion').filter((d) => attr(d, 'TipoDeduccion') === '002');
    const retenidos = attr(ded, 'TotalImpuestosRetenidos');
    if (
      isr.length
        ? retenidos === undefined || !new D(retenidos).equals(sumOf(isr, 'Importe'))
        : retenidos !== undefined
    )
      fail('TotalImpuestosRetenidos');
  }
  const otros = children(nom, N, 'OtrosPagos')[0];
  const to = otros ? sumOf(children(otros, N, 'OtroPago'), 'Importe') : new D(0);
  if (otros && !num(nom, 'TotalOtrosPagos').equals(to)) fail('TotalOtrosPagos');
  if (!tp.plus(to).equals(num(root, 'SubTotal'))) fail('nómina SubTotal');
  if (!num(root, 'Total').equals(tp.plus(to).minus(td))) fail('nómina Total');
}

/** The Carta Porte 3.1 sums: TotalDistRec, PesoBrutoTotal (KGM), NumTotalMercancias, and the time order. */
function checkCartaPorte(cp: Element, fail: (m: string) => void): void {
  const ubicaciones = path(cp, CP, 'Ubicaciones', 'Ubicacion');
  const destinos = ubicaciones.filter((u) => attr(u, 'TipoUbicacion') === 'Destino');
  const km = destinos.reduce((a, u) => a.plus(num(u, 'DistanciaRecorrida')), new D(0));
  if (!km.equals(num(cp, 'TotalDistRec'))) fail('TotalDistRec != Σ DistanciaRecorrida');
  if (ubicaciones.some((u) => attr(u, 'TipoUbicacion') === 'Origen' && attr(u, 'DistanciaRecorrida')))
    fail('DistanciaRecorrida on an Origen');
  const salida = ubicaciones
    .filter((u) => attr(u, 'TipoUbicacion') === 'Origen')
    .map((u) => attr(u, 'FechaHoraSalidaLlegada')!)
    .sort()[0]!;
  if (destinos.some((u) => attr(u, 'FechaHoraSalidaLlegada')! <= salida))
    fail('a Destino before the departure');
  const mercancias = children(cp, CP, 'Mercancias')[0]!;
  const goods = children(mercancias, CP, 'Mercancia');
  if (attr(mercancias, 'UnidadPeso') !== 'KGM') fail('UnidadPeso not KGM');
  if (!goods.reduce((a, m) => a.plus(num(m, 'PesoEnKg')), new D(0)).equals(num(mercancias, 'PesoBrutoTotal')))
    fail('PesoBrutoTotal != Σ PesoEnKg');
  if (Number(attr(mercancias, 'NumTotalMercancias')) !== goods.length) fail('NumTotalMercancias');
  for (const m of goods) {
    const peligroso = attr(m, 'MaterialPeligroso') === 'Sí';
    if (peligroso !== (attr(m, 'CveMaterialPeligroso') !== undefined)) fail('CveMaterialPeligroso presence');
    if (peligroso && attr(m, 'Embalaje') === undefined) fail('hazardous material without Embalaje');
  }
}
