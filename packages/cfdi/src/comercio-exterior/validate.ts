import { dec, sum, ZERO, type Dec } from '../decimal/money';
import type { ComputedInvoice } from '../tax/computed';
import type { CceDomicilio, ComercioExteriorInput } from '../types';
import { domicilioInput } from '../xml/complement-address';
import type { CatalogLookup, ComercioExteriorCatalog } from '../validation/catalog-lookup';
import type { CheckedCurrency } from '../validation/currency';
import { tipoCambioText } from '../validation/currency';
import {
  checkText,
  decimals,
  isGiven,
  isNumberLike,
  isString,
  type Issues,
  type Obj,
  isObject,
} from '../validation/issues';
import { checkMexicanAddressKeys } from '../validation/mexican-address';
import { RFC_EXTRANJERO } from '../validation/rfc';
import { expectedValorDolares, toUsd } from './compute';

/** The parts of an invoice request the Comercio Exterior rules read. */
export interface ExportRequest {
  exportacion?: unknown;
  comercioExterior?: unknown;
  receiver?: unknown;
  items?: unknown;
  shipping?: unknown;
}

/**
 * Exportacion and the Comercio Exterior 2.0 complement (the CFDI 4.0 rules CFDI40122/40222/40153/40195 and the CCE
 * 2.0 validation matrix rules a server can check without the SAT's lists): 02 ⇔ the complement; the receiver is a
 * foreign one (XEXX010101000 with ResidenciaFiscal and NumRegIdTrib); no pedimento on its concepts; catalog keys;
 * TipoCambioUSD equal to TipoCambio when the invoice is in USD; each ValorDolares = CantidadAduana ×
 * ValorUnitarioAduana rounded, TotalUSD = Σ ValorDolares; every concept's NoIdentificacion among the goods and the
 * goods' dollars matching their concepts' Importe converted to USD.
 */
export function checkExport(
  issues: Issues,
  req: ExportRequest,
  catalogs: CatalogLookup,
  currency: CheckedCurrency | undefined,
): ComercioExteriorInput | undefined {
  const exportacion = req.exportacion ?? '01';
  if (exportacion !== '01' && exportacion !== '02') {
    issues.add(
      '/exportacion',
      'must be 01 (no aplica) or 02 (definitiva A1, with comercioExterior); 03 and 04 are not supported',
    );
    return undefined;
  }
  if (exportacion === '01') {
    if (req.comercioExterior !== undefined)
      issues.add(
        '/exportacion',
        'must be 02 with comercioExterior: the complement is for exports (CFDI40222)',
      );
    return undefined;
  }
  if (!isObject(req.comercioExterior)) {
    issues.add(
      '/comercioExterior',
      'is required with exportacion 02: the Comercio Exterior 2.0 complement (CFDI40122)',
    );
    return undefined;
  }
  checkForeignReceiver(issues, req.receiver);
  if (req.shipping !== undefined)
    issues.add(
      '/shipping',
      'must be absent on an export: every concept is a good of the complement; send the freight as an item with its noIdentificacion and good',
    );
  if (Array.isArray(req.items))
    req.items.forEach((item, i) => {
      if (isObject(item) && item.pedimentos !== undefined)
        issues.add(
          `/items/${i}/pedimentos`,
          'must be absent on an export: NumeroPedimento never goes with Comercio Exterior (CFDI40195)',
        );
    });
  return checkComplement(issues, req.comercioExterior, catalogs, currency);
}

function checkForeignReceiver(issues: Issues, receiver: unknown): void {
  if (!isObject(receiver)) return;
  if (receiver.rfc !== RFC_EXTRANJERO)
    issues.add(
      '/receiver/rfc',
      `must be ${RFC_EXTRANJERO} (foreign receiver) on an export with comercioExterior`,
    );
  if (receiver.residenciaFiscal === undefined)
    issues.add(
      '/receiver/residenciaFiscal',
      "is required on an export: the receiver's country (c_Pais) (CFDI40153)",
    );
  if (receiver.numRegIdTrib === undefined)
    issues.add('/receiver/numRegIdTrib', "is required on an export: the receiver's foreign tax id");
}

function checkKey(
  issues: Issues,
  path: string,
  value: unknown,
  catalog: ComercioExteriorCatalog,
  what: string,
  catalogs: CatalogLookup,
  required: boolean,
): void {
  if (!isGiven(issues, path, value, required)) return;
  if (!isString(value) || !catalogs.hasComercioExteriorKey(catalog, value))
    issues.add(path, `${String(value)} is not a ${what} key`);
}

function checkComplement(
  issues: Issues,
  cce: Obj,
  catalogs: CatalogLookup,
  currency: CheckedCurrency | undefined,
): ComercioExteriorInput | undefined {
  checkKey(issues, '/comercioExterior/incoterm', cce.incoterm, 'incoterms', 'c_INCOTERM', catalogs, true);
  if (cce.numCertificadoOrigen !== undefined) {
    checkText(issues, '/comercioExterior/numCertificadoOrigen', cce.numCertificadoOrigen, 40, true);
    if (isString(cce.numCertificadoOrigen) && cce.numCertificadoOrigen.trim().length < 6)
      issues.add('/comercioExterior/numCertificadoOrigen', 'must have 6 to 40 characters');
  }
  checkText(issues, '/comercioExterior/numeroExportadorConfiable', cce.numeroExportadorConfiable, 50, false);
  checkText(issues, '/comercioExterior/observaciones', cce.observaciones, 300, false);
  const tipoCambioUSD = checkTipoCambioUSD(issues, cce.tipoCambioUSD, currency);
  checkDomicilio(
    issues,
    '/comercioExterior/emisor/domicilio',
    isObject(cce.emisor) ? cce.emisor.domicilio : undefined,
    catalogs,
    true,
  );
  if (isObject(cce.emisor)) checkText(issues, '/comercioExterior/emisor/curp', cce.emisor.curp, 18, false);
  checkDomicilio(
    issues,
    '/comercioExterior/receptor/domicilio',
    isObject(cce.receptor) ? cce.receptor.domicilio : undefined,
    catalogs,
    false,
  );
  checkDestinatarios(issues, cce.destinatarios, catalogs);
  const dollars = checkMercancias(issues, cce.mercancias, catalogs);
  if (dollars && cce.totalUSD !== undefined) {
    const total = sum(dollars);
    if (!isNumberLike(cce.totalUSD) || !dec(cce.totalUSD).equals(total))
      issues.add(
        '/comercioExterior/totalUSD',
        `must be the sum of the goods' valorDolares, ${total.toFixed(2)} (CCE20 TotalUSD); or leave it out and it is computed`,
      );
  }
  if (!dollars || !tipoCambioUSD) return undefined;
  return normalized(cce, tipoCambioUSD, dollars);
}

const cceDomicilio = (d: Obj, pais?: string) => domicilioInput(d, pais ?? String(d.pais)) as CceDomicilio;

const str = (v: unknown): string | undefined => (v === undefined ? undefined : String(v));
const amountText = (v: unknown): string | undefined =>
  v === undefined ? undefined : typeof v === 'number' ? v.toFixed(decimals(v)) : String(v);

/** The checked request as the engine input the document is stored with (amounts as exact decimal strings). */
function normalized(cce: Obj, tipoCambioUSD: string, dollars: Dec[]): ComercioExteriorInput {
  const emisor = cce.emisor as Obj;
  const destinatarios = cce.destinatarios as Obj[] | undefined;
  return {
    ...(cce.incoterm !== undefined ? { incoterm: String(cce.incoterm) } : {}),
    ...(cce.numCertificadoOrigen !== undefined
      ? { numCertificadoOrigen: String(cce.numCertificadoOrigen) }
      : {}),
    ...(cce.numeroExportadorConfiable !== undefined
      ? { numeroExportadorConfiable: String(cce.numeroExportadorConfiable) }
      : {}),
    ...(cce.observaciones !== undefined ? { observaciones: String(cce.observaciones) } : {}),
    tipoCambioUSD,
    emisor: {
      ...(emisor.curp !== undefined ? { curp: String(emisor.curp) } : {}),
      domicilio: cceDomicilio(emisor.domicilio as Obj, 'MEX'),
    },
    receptor: { domicilio: cceDomicilio((cce.receptor as Obj).domicilio as Obj) },
    ...(destinatarios
      ? {
          destinatarios: destinatarios.map((d) => ({
            ...(d.numRegIdTrib !== undefined ? { numRegIdTrib: String(d.numRegIdTrib) } : {}),
            ...(d.nombre !== undefined ? { nombre: String(d.nombre) } : {}),
            domicilios: (d.domicilios as Obj[]).map((x) => cceDomicilio(x)),
          })),
        }
      : {}),
    mercancias: (cce.mercancias as Obj[]).map((m, i) => ({
      noIdentificacion: String(m.noIdentificacion),
      fraccionArancelaria: str(m.fraccionArancelaria)!,
      cantidadAduana: amountText(m.cantidadAduana)!,
      unidadAduana: str(m.unidadAduana)!,
      valorUnitarioAduana: amountText(m.valorUnitarioAduana)!,
      valorDolares: dollars[i]!.toFixed(2),
    })),
  };
}

function checkTipoCambioUSD(
  issues: Issues,
  value: unknown,
  currency: CheckedCurrency | undefined,
): string | undefined {
  const path = '/comercioExterior/tipoCambioUSD';
  if (value === undefined) {
    if (currency?.moneda === 'USD') return currency.tipoCambio;
    issues.add(path, 'is required: the MXN value of one USD (with moneda USD it defaults to tipoCambio)');
    return undefined;
  }
  const rate = tipoCambioText(value);
  if (!rate) {
    issues.add(path, 'must be a number greater than 0 with at most 6 decimals');
    return undefined;
  }
  if (currency?.moneda === 'USD' && currency.tipoCambio && !dec(rate).equals(dec(currency.tipoCambio)))
    issues.add(path, `must equal tipoCambio (${currency.tipoCambio}) when the invoice is in USD`);
  return rate;
}

const ESTADO_PAISES = ['MEX', 'USA', 'CAN'];

function checkDomicilio(
  issues: Issues,
  path: string,
  d: unknown,
  catalogs: CatalogLookup,
  mexican: boolean,
): void {
  if (!isObject(d))
    return issues.add(path, 'is required: {calle, estado, codigoPostal' + (mexican ? '' : ', pais') + ', …}');
  checkText(issues, `${path}/calle`, d.calle, 100, true);
  checkText(issues, `${path}/numeroExterior`, d.numeroExterior, 55, false);
  checkText(issues, `${path}/numeroInterior`, d.numeroInterior, 55, false);
  checkText(issues, `${path}/referencia`, d.referencia, 250, false);
  checkText(issues, `${path}/estado`, d.estado, 30, true);
  checkText(issues, `${path}/codigoPostal`, d.codigoPostal, 12, true);
  if (mexican) {
    // The emisor's address uses the SAT's own keys (c_Estado, c_Municipio, c_Localidad, c_Colonia, c_CodigoPostal).
    if (d.pais !== undefined && d.pais !== 'MEX')
      issues.add(`${path}/pais`, 'must be MEX (the issuer is in Mexico)');
    checkMexicanAddressKeys(issues, path, d);
    return;
  }
  checkText(issues, `${path}/colonia`, d.colonia, 120, false);
  checkText(issues, `${path}/localidad`, d.localidad, 120, false);
  checkText(issues, `${path}/municipio`, d.municipio, 120, false);
  if (!isString(d.pais) || !catalogs.pais(d.pais))
    return issues.add(`${path}/pais`, `${String(d.pais)} is not a c_Pais key`);
  if (ESTADO_PAISES.includes(d.pais) && isString(d.estado) && !/^[A-Z]{2,3}$/.test(d.estado))
    issues.add(`${path}/estado`, `must be the state's c_Estado key in ${d.pais} (e.g. TX, ON)`);
}

function checkDestinatarios(issues: Issues, value: unknown, catalogs: CatalogLookup): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length === 0)
    return issues.add('/comercioExterior/destinatarios', 'must be a non-empty array');
  value.forEach((d, i) => {
    const path = `/comercioExterior/destinatarios/${i}`;
    if (!isObject(d)) return issues.add(path, 'must be an object');
    checkText(issues, `${path}/numRegIdTrib`, d.numRegIdTrib, 40, false);
    checkText(issues, `${path}/nombre`, d.nombre, 300, false);
    if (!Array.isArray(d.domicilios) || d.domicilios.length === 0)
      return issues.add(`${path}/domicilios`, 'is required: at least one address');
    d.domicilios.forEach((dom, j) => checkDomicilio(issues, `${path}/domicilios/${j}`, dom, catalogs, false));
  });
}

/** Checks the goods; returns each one's ValorDolares when all are valid. */
function checkMercancias(issues: Issues, value: unknown, catalogs: CatalogLookup): Dec[] | undefined {
  if (!Array.isArray(value) || value.length === 0) {
    issues.add(
      '/comercioExterior/mercancias',
      'is required: at least one good {noIdentificacion, fraccionArancelaria, …}',
    );
    return undefined;
  }
  const before = issues.list.length;
  const dollars = value.map((m, i) =>
    checkMercancia(issues, `/comercioExterior/mercancias/${i}`, m, catalogs),
  );
  return issues.list.length === before ? (dollars as Dec[]) : undefined;
}

function checkAmount(
  issues: Issues,
  path: string,
  v: unknown,
  places: number,
  min: 'positive' | 'zero',
): boolean {
  if (v === undefined) return false;
  if (!isNumberLike(v) || Number(v) < 0 || (min === 'positive' && Number(v) === 0)) {
    issues.add(path, min === 'positive' ? 'must be a number greater than 0' : 'must be a number >= 0');
    return false;
  }
  if (decimals(v) > places) {
    issues.add(path, `must have at most ${places} decimals`);
    return false;
  }
  return true;
}

function checkMercancia(issues: Issues, path: string, m: unknown, catalogs: CatalogLookup): Dec | undefined {
  if (!isObject(m)) {
    issues.add(path, 'must be an object');
    return undefined;
  }
  checkText(issues, `${path}/noIdentificacion`, m.noIdentificacion, 100, true);
  checkKey(
    issues,
    `${path}/fraccionArancelaria`,
    m.fraccionArancelaria,
    'fracciones-arancelarias',
    'c_FraccionArancelaria',
    catalogs,
    true,
  );
  checkKey(
    issues,
    `${path}/unidadAduana`,
    m.unidadAduana,
    'unidades-aduana',
    'c_UnidadAduana',
    catalogs,
    true,
  );
  const cantidad = checkAmount(issues, `${path}/cantidadAduana`, m.cantidadAduana, 3, 'positive');
  if (m.cantidadAduana === undefined) issues.add(`${path}/cantidadAduana`, 'is required');
  const unitario = checkAmount(issues, `${path}/valorUnitarioAduana`, m.valorUnitarioAduana, 6, 'zero');
  if (m.valorUnitarioAduana === undefined)
    issues.add(`${path}/valorUnitarioAduana`, 'is required: USD per unidadAduana');
  if (!cantidad || !unitario) return undefined;
  const expected = expectedValorDolares({
    cantidadAduana: String(m.cantidadAduana),
    valorUnitarioAduana: String(m.valorUnitarioAduana),
  })!;
  if (m.valorDolares === undefined) return expected;
  if (!checkAmount(issues, `${path}/valorDolares`, m.valorDolares, 4, 'zero')) return undefined;
  if (!dec(m.valorDolares as number).equals(expected)) {
    issues.add(
      `${path}/valorDolares`,
      `must be cantidadAduana × valorUnitarioAduana rounded to 2 decimals, ${expected.toFixed(2)} (CCE20 ValorDolares); or leave it out and it is computed`,
    );
    return undefined;
  }
  return expected;
}

/**
 * After the tax engine: every concept's NoIdentificacion names a good and every good a concept, and the dollars of
 * the goods of one NoIdentificacion match the Importe of its concepts converted to USD (TipoCambio / TipoCambioUSD),
 * within one cent per concept for the roundings on both sides.
 */
export function checkExportAgainstConcepts(
  issues: Issues,
  cce: ComercioExteriorInput,
  computed: ComputedInvoice,
  tipoCambio: string,
): void {
  const goods = new Map<string, Dec>();
  for (const m of cce.mercancias)
    goods.set(m.noIdentificacion, (goods.get(m.noIdentificacion) ?? ZERO).plus(dec(m.valorDolares!)));
  const concepts = new Map<string, { importe: Dec; count: number; first: number }>();
  computed.concepts.forEach((c, i) => {
    if (c.noIdentificacion === undefined || !goods.has(c.noIdentificacion)) {
      issues.add(
        `/items/${i}/noIdentificacion`,
        'must name one of comercioExterior.mercancias (its noIdentificacion): each exported concept is a good of the complement',
      );
      return;
    }
    const seen = concepts.get(c.noIdentificacion) ?? { importe: ZERO, count: 0, first: i };
    const net = dec(c.importe).minus(dec(c.descuento ?? 0));
    concepts.set(c.noIdentificacion, {
      importe: seen.importe.plus(net),
      count: seen.count + 1,
      first: seen.first,
    });
  });
  cce.mercancias.forEach((m, i) => {
    const concept = concepts.get(m.noIdentificacion);
    if (!concept) {
      if (!computed.concepts.some((c) => c.noIdentificacion === m.noIdentificacion))
        issues.add(
          `/comercioExterior/mercancias/${i}/noIdentificacion`,
          'must be the noIdentificacion of one of the items',
        );
      return;
    }
    if (cce.mercancias.findIndex((x) => x.noIdentificacion === m.noIdentificacion) !== i) return;
    const usd = toUsd(concept.importe, tipoCambio, cce.tipoCambioUSD);
    const tolerance = dec('0.01').times(concept.count + 1);
    if (goods.get(m.noIdentificacion)!.minus(usd).abs().gt(tolerance))
      issues.add(
        `/comercioExterior/mercancias/${i}/valorDolares`,
        `the goods ${m.noIdentificacion} add up to ${goods.get(m.noIdentificacion)!.toFixed(2)} USD but their items' amount (before taxes) is ${usd.toFixed(2)} USD at tipoCambio ${tipoCambio} / tipoCambioUSD ${cce.tipoCambioUSD}`,
      );
  });
}
