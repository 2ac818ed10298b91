import {
  ceil,
  dec,
  fixed,
  plain,
  rateText,
  round,
  trunc,
  writtenDecimals,
  ZERO,
  ONE,
  type Dec,
} from '../decimal/money';
import type { ConceptsInput } from '../types';
import type { ComputedConcept, ComputedTax, Impuesto } from './computed';
import { normalizePedimentos } from './pedimentos';
import { IEPS, IVA, parseIepsRate, parseIvaRate } from './rates';

const SHIPPING_PRODUCT_CODE = '78101800';
const SHIPPING_UNIT_CODE = 'E48';

/** One concept before amounts are fixed: what the caller asked for, parsed. */
export interface LineSpec {
  claveProdServ: string;
  claveUnidad: string;
  descripcion: string;
  unidad?: string;
  noIdentificacion?: string;
  pedimentos: string[];
  quantity: Dec;
  /** Price as sent: net, or tax-inclusive when pricesIncludeTax. */
  price: Dec;
  priceDecimals: number;
  /** null = IVA exento. */
  ivaRate: Dec | null;
  iepsRate: Dec | null;
  /** Shipping does not take part in the cart discount. */
  discountable: boolean;
}

/** Amounts of one concept for a given ValorUnitario and Descuento. */
export interface LineAmounts {
  valorUnitario: Dec;
  importe: Dec;
  descuento: Dec | null;
  taxes: Array<{
    base: Dec;
    impuesto: Impuesto;
    tipoFactor: 'Tasa' | 'Exento';
    rate: Dec | null;
    importe: Dec | null;
  }>;
}

function checkDecimals(label: string, value: Dec, max: number): Dec {
  if (!value.isPositive() || value.isZero()) throw new RangeError(`${label} must be greater than 0`);
  if (value.decimalPlaces() > max) throw new RangeError(`${label} has more than ${max} decimals`);
  return value;
}

export function parseLines(input: ConceptsInput): LineSpec[] {
  const lines: LineSpec[] = input.items.map((item, i) => {
    const price = checkDecimals(`items[${i}].unitPrice`, dec(item.unitPrice), 6);
    const noIdentificacion = item.noIdentificacion ?? item.sku;
    return {
      claveProdServ: item.productCode,
      claveUnidad: item.unitCode,
      descripcion: item.description,
      ...(item.unit !== undefined ? { unidad: item.unit } : {}),
      ...(noIdentificacion !== undefined && noIdentificacion !== '' ? { noIdentificacion } : {}),
      pedimentos: normalizePedimentos(item.pedimentos),
      quantity: checkDecimals(`items[${i}].quantity`, dec(item.quantity), 6),
      price,
      priceDecimals: writtenDecimals(plain(price)),
      ivaRate: item.taxable === false ? null : parseIvaRate(item.ivaRate),
      iepsRate: parseIepsRate(item.iepsRate),
      discountable: true,
    };
  });
  if (input.shipping) {
    const price = checkDecimals('shipping.amount', dec(input.shipping.amount), 6);
    lines.push({
      claveProdServ: input.shipping.productCode ?? SHIPPING_PRODUCT_CODE,
      claveUnidad: input.shipping.unitCode ?? SHIPPING_UNIT_CODE,
      descripcion: input.shipping.description ?? 'Envío',
      pedimentos: [],
      quantity: ONE,
      price,
      priceDecimals: writtenDecimals(plain(price)),
      ivaRate: parseIvaRate(input.shipping.ivaRate),
      iepsRate: null,
      discountable: false,
    });
  }
  return lines;
}

/** (1 + IEPS) × (1 + IVA): gross price per unit of net price. */
export function taxFactor(line: LineSpec): Dec {
  return ONE.plus(line.iepsRate ?? ZERO).times(ONE.plus(line.ivaRate ?? ZERO));
}

/**
 * Forward computation of §2.1 for one concept. IEPS is computed on Importe − Descuento and
 * the IVA base includes the IEPS amount (guide example: 15000 + IEPS 1200 → IVA base 16200).
 */
export function lineAmounts(
  line: LineSpec,
  valorUnitario: Dec,
  descuento: Dec | null,
  places: number,
  importeOverride?: Dec,
): LineAmounts {
  const importe = importeOverride ?? round(line.quantity.times(valorUnitario), places);
  const base = importe.minus(descuento ?? ZERO);
  const taxes: LineAmounts['taxes'] = [];
  let ivaBase = base;
  if (line.iepsRate) {
    const iepsImporte = round(base.times(line.iepsRate), places);
    taxes.push({ base, impuesto: IEPS, tipoFactor: 'Tasa', rate: line.iepsRate, importe: iepsImporte });
    ivaBase = base.plus(iepsImporte);
  }
  if (line.ivaRate) {
    taxes.push({
      base: ivaBase,
      impuesto: IVA,
      tipoFactor: 'Tasa',
      rate: line.ivaRate,
      importe: round(ivaBase.times(line.ivaRate), places),
    });
  } else {
    taxes.push({ base: ivaBase, impuesto: IVA, tipoFactor: 'Exento', rate: null, importe: null });
  }
  return { valorUnitario, importe, descuento, taxes };
}

/**
 * §2.4 band the SAT accepts for Importe given Cantidad and ValorUnitario as written:
 * (Cantidad ± ½ ulp) × (ValorUnitario ± ½ ulp), truncated / ceiled at `places`.
 */
export function importeBand(
  line: LineSpec,
  valorUnitario: Dec,
  vuPlaces: number,
  places: number,
): [Dec, Dec] {
  const hq = dec(10)
    .pow(-writtenDecimals(plain(line.quantity)))
    .div(2);
  const hv = dec(10).pow(-vuPlaces).div(2);
  const tiny = dec('1e-12');
  return [
    trunc(line.quantity.minus(hq).times(valorUnitario.minus(hv)), places),
    ceil(line.quantity.plus(hq).minus(tiny).times(valorUnitario.plus(hv).minus(tiny)), places),
  ];
}

/** Writes an amount with the decimals it needs, and at least those `alsoFits` needs. */
export type AmountText = (value: Dec, alsoFits?: Dec | null) => string;

/**
 * The concept as written in the XML; `amountText` writes Importe, Descuento and the taxes' Base and Importe.
 * Importe takes at least Descuento's decimals (CFDI40168: Descuento may not have more).
 */
export function toConcept(
  line: LineSpec,
  amounts: LineAmounts,
  amountText: AmountText,
  vuPlaces: number,
): ComputedConcept {
  const traslados: ComputedTax[] = amounts.taxes.map((t) => ({
    base: amountText(t.base),
    impuesto: t.impuesto,
    tipoFactor: t.tipoFactor,
    ...(t.rate ? { tasaOCuota: rateText(t.rate) } : {}),
    ...(t.importe ? { importe: amountText(t.importe) } : {}),
  }));
  return {
    claveProdServ: line.claveProdServ,
    ...(line.noIdentificacion !== undefined ? { noIdentificacion: line.noIdentificacion } : {}),
    cantidad: plain(line.quantity),
    claveUnidad: line.claveUnidad,
    ...(line.unidad !== undefined ? { unidad: line.unidad } : {}),
    descripcion: line.descripcion,
    valorUnitario: fixed(amounts.valorUnitario, vuPlaces),
    importe: amountText(amounts.importe, amounts.descuento),
    ...(amounts.descuento ? { descuento: amountText(amounts.descuento) } : {}),
    objetoImp: '02',
    traslados,
    pedimentos: line.pedimentos,
  };
}
