// What the stamping benches send and how they read latencies: one definition for bench/stamp/run.ts and topologies.ts.
export const RECEIVER = { rfc: 'URE180429TM6', name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA', zip: '86991', regimenFiscal: '601' };
const item = (i: number) => ({ productCode: '43211503', unitCode: 'H87', description: `Equipo ${i}`, quantity: 1 + (i % 3), unitPrice: 1160 + i });
/** A PUE income invoice of `items` concepts. */
export const body = (merchantId: string, items: number) => ({ merchantId, formaPago: '03', usoCfdi: 'G03', receiver: RECEIVER, items: Array.from({ length: items }, (_, i) => item(i)) });
export const percentile = (xs: number[], q: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))] ?? NaN;
