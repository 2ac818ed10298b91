import { computePayment, type ComputedPayment } from '../payment/compute-payment';
import type { BuildOptions, PaymentInput } from '../types';
import {
  addEmisor,
  addReceptor,
  headerAttributes,
  NO_AMOUNTS,
  serialize,
  startComprobante,
} from './comprobante';
import { NS } from './dom';
import { xmlText } from './text';

const PAGOS = {
  prefix: 'pago20',
  uri: NS.pago20,
  schemaLocation: 'http://www.sat.gob.mx/sitio_internet/cfd/Pagos/Pagos20.xsd',
};

export interface BuiltPayment {
  xml: string;
  computed: ComputedPayment;
}

function taxAttrs(suffix: 'DR' | 'P', t: ComputedPayment['traslados'][number]): Record<string, string> {
  const a: Record<string, string> = {
    [`Base${suffix}`]: t.base,
    [`Impuesto${suffix}`]: t.impuesto,
    [`TipoFactor${suffix}`]: t.tipoFactor,
  };
  if (t.tasaOCuota !== undefined) a[`TasaOCuota${suffix}`] = t.tasaOCuota;
  if (t.importe !== undefined) a[`Importe${suffix}`] = t.importe;
  return a;
}

/** Payment complement (P, Pagos 2.0) for one payment of one PPD invoice, in any currency of either. */
export function buildPaymentXml(input: PaymentInput, options: BuildOptions): BuiltPayment {
  const computed = computePayment(input);
  const root = startComprobante(
    {
      ...headerAttributes(input, options),
      ...NO_AMOUNTS,
      TipoDeComprobante: 'P',
      LugarExpedicion: input.issuer.zip,
    },
    PAGOS,
  );
  addEmisor(root, input.issuer);
  addReceptor(root, input.receiver, 'CP01');
  root.ele(NS.cfdi, 'cfdi:Conceptos').ele(NS.cfdi, 'cfdi:Concepto', {
    ClaveProdServ: '84111506',
    Cantidad: '1',
    ClaveUnidad: 'ACT',
    Descripcion: 'Pago',
    ValorUnitario: '0',
    Importe: '0',
    ObjetoImp: '01',
  });
  const pagos = root.ele(NS.cfdi, 'cfdi:Complemento').ele(NS.pago20, 'pago20:Pagos', { Version: '2.0' });
  pagos.ele(NS.pago20, 'pago20:Totales', computed.totales);
  const pago = pagos.ele(NS.pago20, 'pago20:Pago', {
    FechaPago: input.fechaPago,
    FormaDePagoP: input.formaPago,
    MonedaP: computed.monedaP,
    TipoCambioP: computed.tipoCambioP,
    Monto: computed.monto,
    ...(input.numOperacion !== undefined
      ? { NumOperacion: xmlText('numOperacion', input.numOperacion) }
      : {}),
  });
  const inv = input.invoice;
  const docto = pago.ele(NS.pago20, 'pago20:DoctoRelacionado', {
    IdDocumento: inv.uuid.toUpperCase(),
    ...(inv.serie !== undefined ? { Serie: xmlText('invoice.serie', inv.serie) } : {}),
    ...(inv.folio !== undefined ? { Folio: xmlText('invoice.folio', inv.folio) } : {}),
    MonedaDR: computed.monedaDR,
    EquivalenciaDR: computed.equivalenciaDR,
    NumParcialidad: String(input.numParcialidad),
    ImpSaldoAnt: computed.impSaldoAnt,
    ImpPagado: computed.impPagado,
    ImpSaldoInsoluto: computed.impSaldoInsoluto,
    ObjetoImpDR: computed.objetoImpDR,
  });
  if (computed.traslados.length > 0) {
    const dr = docto.ele(NS.pago20, 'pago20:ImpuestosDR').ele(NS.pago20, 'pago20:TrasladosDR');
    for (const t of computed.traslados) dr.ele(NS.pago20, 'pago20:TrasladoDR', taxAttrs('DR', t));
    const p = pago.ele(NS.pago20, 'pago20:ImpuestosP').ele(NS.pago20, 'pago20:TrasladosP');
    for (const t of computed.trasladosP) p.ele(NS.pago20, 'pago20:TrasladoP', taxAttrs('P', t));
  }
  return { xml: serialize(root), computed };
}
