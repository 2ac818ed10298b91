import fc from 'fast-check';
import type { Issuer } from '../src';
import { comExtKeys } from './catalogs';
import { ISSUERS } from './generators';

/**
 * Export invoice requests (exportacion 02 with Comercio Exterior 2.0) as the API receives them: every currency kind
 * (USD, where TipoCambioUSD is the invoice's rate; EUR and CAD with their own; JPY with 0 decimals; KWD with 3),
 * net or tax-inclusive prices, goods split over several concepts and several goods per concept key, certificates of
 * origin, destinatarios, every Incoterm and customs unit.
 */
const keys = comExtKeys();
const INCOTERMS = [...keys.incoterms];
const UNIDADES = [...keys['unidades-aduana']];
// A fixed sample keeps the corpus reproducible; every key of the XSD is equally valid.
const FRACCIONES = [...keys['fracciones-arancelarias']].filter((_, i) => i % 997 === 0);

const RECEIVERS = [
  { country: 'USA', numRegIdTrib: '121585958', name: 'ACME TRADING', state: 'TX', zip: '78501' },
  { country: 'CAN', numRegIdTrib: '123456789', name: 'MAPLE GOODS', state: 'ON', zip: 'M5V 2T6' },
  { country: 'DEU', numRegIdTrib: 'DE811569869', name: 'MÜLLER & SÖHNE', state: 'Bayern', zip: '80331' },
  { country: 'JPN', numRegIdTrib: 'T1234567890123', name: 'SAKURA KK', state: 'Tokio', zip: '100-0001' },
];

const CURRENCIES = [
  { moneda: 'USD', tipoCambio: '17.2345', decimals: 2 },
  { moneda: 'EUR', tipoCambio: '18.901234', decimals: 2 },
  { moneda: 'CAD', tipoCambio: '12.5', decimals: 2 },
  { moneda: 'JPY', tipoCambio: '0.114567', decimals: 0 },
  { moneda: 'KWD', tipoCambio: '56.1', decimals: 3 },
  { moneda: 'MXN', tipoCambio: undefined, decimals: 2 },
];

export interface ExportCase {
  issuer: Issuer;
  csd: string;
  request: Record<string, unknown>;
}

const good = fc.record({
  quantity: fc.integer({ min: 1, max: 500 }),
  /** Price of one unit in the invoice's currency, in its smallest units. */
  units: fc.integer({ min: 1, max: 2_000_000 }),
  fraccion: fc.constantFrom(...FRACCIONES),
  unidad: fc.constantFrom(...UNIDADES),
  split: fc.boolean(),
  ivaZero: fc.boolean(),
});

export const exportInvoice: fc.Arbitrary<ExportCase> = fc
  .record({
    issuer: fc.constantFrom(...ISSUERS),
    receiver: fc.constantFrom(...RECEIVERS),
    currency: fc.constantFrom(...CURRENCIES),
    tipoCambioUSD: fc.constantFrom('17.2345', '16.98', '18.000001'),
    incoterm: fc.constantFrom(...INCOTERMS),
    certificate: fc.option(fc.constantFrom('CO-123456', 'MX2026-000991'), { nil: undefined }),
    destinatario: fc.boolean(),
    inclusive: fc.boolean(),
    goods: fc.array(good, { minLength: 1, maxLength: 6 }),
  })
  .map(
    ({
      issuer,
      receiver,
      currency,
      tipoCambioUSD,
      incoterm,
      certificate,
      destinatario,
      inclusive,
      goods,
    }) => {
      const rateUsd = currency.moneda === 'USD' ? currency.tipoCambio! : tipoCambioUSD;
      const rate = currency.tipoCambio ?? '1';
      const items: Array<Record<string, unknown>> = [];
      const mercancias: Array<Record<string, unknown>> = [];
      goods.forEach((g, i) => {
        const price = (g.units / 10 ** currency.decimals).toFixed(currency.decimals);
        const sku = `SKU-${i}`;
        const lines =
          g.split && g.quantity > 1
            ? [Math.floor(g.quantity / 2), g.quantity - Math.floor(g.quantity / 2)]
            : [g.quantity];
        for (const q of lines)
          items.push({
            productCode: '43211503',
            unitCode: 'H87',
            description: `Mercancía ${i}`,
            quantity: q,
            unitPrice: price,
            noIdentificacion: sku,
            ivaRate: 0,
          });
        // USD per piece: the concept's net price converted, so Σ ValorDolares matches the concepts (within cents).
        const usdPerUnit = ((Number(price) * Number(rate)) / Number(rateUsd)).toFixed(6);
        mercancias.push({
          noIdentificacion: sku,
          fraccionArancelaria: g.fraccion,
          cantidadAduana: g.quantity,
          unidadAduana: g.unidad,
          valorUnitarioAduana: Number(usdPerUnit),
        });
      });
      const request: Record<string, unknown> = {
        formaPago: '03',
        usoCfdi: 'S01',
        receiver: {
          rfc: 'XEXX010101000',
          name: receiver.name,
          zip: issuer.issuer.zip,
          regimenFiscal: '616',
          residenciaFiscal: receiver.country,
          numRegIdTrib: receiver.numRegIdTrib,
        },
        items,
        // IVA 0 % on exports: the price is net either way.
        pricesIncludeTax: inclusive,
        ...(currency.moneda !== 'MXN'
          ? { moneda: currency.moneda, tipoCambio: Number(currency.tipoCambio) }
          : {}),
        exportacion: '02',
        comercioExterior: {
          incoterm,
          ...(certificate ? { numCertificadoOrigen: certificate } : {}),
          ...(currency.moneda === 'USD' ? {} : { tipoCambioUSD: Number(tipoCambioUSD) }),
          emisor: {
            domicilio: {
              calle: 'Av. Juárez',
              numeroExterior: '100',
              municipio: '039',
              estado: 'JAL',
              codigoPostal: issuer.issuer.zip,
            },
          },
          receptor: {
            domicilio: {
              calle: 'Main St',
              numeroExterior: '5',
              estado: receiver.state,
              pais: receiver.country,
              codigoPostal: receiver.zip,
            },
          },
          ...(destinatario
            ? {
                destinatarios: [
                  {
                    nombre: `${receiver.name} WAREHOUSE`,
                    domicilios: [
                      {
                        calle: 'Dock 9',
                        estado: receiver.state,
                        pais: receiver.country,
                        codigoPostal: receiver.zip,
                      },
                    ],
                  },
                ],
              }
            : {}),
          mercancias,
        },
      };
      return { issuer: issuer.issuer, csd: issuer.csd, request };
    },
  );
