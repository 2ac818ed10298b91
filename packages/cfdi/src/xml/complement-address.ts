import type { ComplementDomicilio } from '../complement-domicilio';
import type { XmlElement } from './builder';
import { xmlText } from './text';

// What the complements that carry addresses (Comercio Exterior 2.0, Carta Porte 3.1) write alike.

/** The attributes given, without the undefined ones. */
export const definedAttrs = (a: Record<string, string | undefined>): Record<string, string> =>
  Object.fromEntries(Object.entries(a).filter(([, v]) => v !== undefined)) as Record<string, string>;

/** An optional free-text value as the XML carries it (`xmlText`), or nothing. */
export const optionalText = (label: string, v: string | undefined) =>
  v === undefined ? undefined : xmlText(label, v);

const DOMICILIO_FIELDS = [
  'calle',
  'numeroExterior',
  'numeroInterior',
  'colonia',
  'localidad',
  'referencia',
  'municipio',
  'estado',
  'codigoPostal',
] as const;

/** A request's address with its values as strings, and the country the caller decided. */
export function domicilioInput(d: Record<string, unknown>, pais: string): ComplementDomicilio {
  const out: Record<string, string> = {};
  for (const k of DOMICILIO_FIELDS) if (d[k] !== undefined) out[k] = String(d[k]);
  return { ...(out as unknown as ComplementDomicilio), pais };
}

/** `<prefix:Domicilio>` in the complement's namespace, its attributes in the XSD's order. */
export function addDomicilio(
  parent: XmlElement,
  namespace: string,
  qualifiedName: string,
  d: ComplementDomicilio,
  label: string,
): void {
  parent.ele(
    namespace,
    qualifiedName,
    definedAttrs({
      Calle: optionalText(`${label}.calle`, d.calle),
      NumeroExterior: optionalText(`${label}.numeroExterior`, d.numeroExterior),
      NumeroInterior: optionalText(`${label}.numeroInterior`, d.numeroInterior),
      Colonia: optionalText(`${label}.colonia`, d.colonia),
      Localidad: optionalText(`${label}.localidad`, d.localidad),
      Referencia: optionalText(`${label}.referencia`, d.referencia),
      Municipio: optionalText(`${label}.municipio`, d.municipio),
      Estado: xmlText(`${label}.estado`, d.estado),
      Pais: d.pais,
      CodigoPostal: xmlText(`${label}.codigoPostal`, d.codigoPostal),
    }),
  );
}
