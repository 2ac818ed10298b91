import type { Element } from '@xmldom/xmldom';
import { CANCELACION_NS, parseStrictXml } from '@cfdi/pac';

export interface CancelacionRequest {
  rfcEmisor: string;
  fecha: string;
  folios: Array<{ uuid: string; motivo: string; folioSustitucion: string }>;
}

/** Reads the SAT `Cancelacion` request (namespace http://cancelacfd.sat.gob.mx). */
export function readCancelacion(xml: string): CancelacionRequest | undefined {
  let root: Element | null;
  try {
    root = parseStrictXml(xml);
  } catch {
    return undefined;
  }
  if (!root || root.localName !== 'Cancelacion' || root.namespaceURI !== CANCELACION_NS) return undefined;
  const folios = Array.from(root.getElementsByTagNameNS(CANCELACION_NS, 'Folio')).map((f) => ({
    uuid: (f.getAttribute('UUID') ?? '').toUpperCase(),
    motivo: f.getAttribute('Motivo') ?? '',
    folioSustitucion: (f.getAttribute('FolioSustitucion') ?? '').toUpperCase(),
  }));
  const rfcEmisor = root.getAttribute('RfcEmisor') ?? '';
  if (!rfcEmisor || folios.length === 0) return undefined;
  return { rfcEmisor, fecha: root.getAttribute('Fecha') ?? '', folios };
}
