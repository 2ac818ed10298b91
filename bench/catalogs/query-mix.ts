import type { ProductRecord } from '@cfdi/catalogs';

const TYPED = [
  'tornillo',
  'servicios de facturacion',
  'computadora portatil',
  '8411',
  'camion',
  'laptop',
  'agua',
  'servicio',
  'consultoria',
  'renta de oficina',
  'pintura',
  'cemento',
  'gasolina',
  'medicamento',
  'software',
  'publicidad',
  'transporte de carga',
  'limpieza',
  'papel',
  'cable',
  'honorarios',
  'mantenimiento',
  'alimentos',
  'ropa',
  '43',
  '5010',
  '80111701',
  'xyzzy',
  'impresora',
  'telefono celular',
];

/** 1,000 deterministic queries: typed phrases, key prefixes, and 1–3 word prefixes drawn from descriptions. */
export function queryMix(products: readonly ProductRecord[], count = 1000): string[] {
  let seed = 42;
  const rand = (n: number) => {
    seed = (seed * 1103515245 + 12345) % 2 ** 31;
    return seed % n;
  };
  const queries: string[] = [];
  while (queries.length < count) {
    const kind = rand(4);
    const product = products[rand(products.length)]!;
    if (kind === 0) queries.push(TYPED[rand(TYPED.length)]!);
    else if (kind === 1) queries.push(product.clave.slice(0, 2 + rand(6)));
    else {
      const words = product.descripcion.split(/\s+/).filter((w) => w.length > 2);
      const picked = words
        .slice(0, 1 + rand(3))
        .map((w, i, all) => (i === all.length - 1 ? w.slice(0, 3 + rand(w.length)) : w));
      queries.push(picked.join(' ').toLowerCase());
    }
  }
  return queries;
}
