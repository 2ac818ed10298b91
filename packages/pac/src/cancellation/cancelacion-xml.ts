import { escapeXml } from '../soap/xml-escape';

export const CANCELACION_NS = 'http://cancelacfd.sat.gob.mx';

/** c_MotivoCancelacion (cfdi40.md §8.1). */
export type MotivoCancelacion = '01' | '02' | '03' | '04';

export interface CancelacionFolio {
  uuid: string;
  motivo: MotivoCancelacion;
  /** Required with motive 01: UUID of the replacement CFDI. */
  folioSustitucion?: string;
}

export interface CancelacionInput {
  rfcEmisor: string;
  /** AAAA-MM-DDThh:mm:ss, Mexico City local time, no zone (same format as Comprobante@Fecha). */
  fecha: string;
  folios: readonly CancelacionFolio[];
}

/** The unsigned SAT `Cancelacion` request (CancelaCfd.xsd), one `Folios` per UUID. */
export function buildCancelacionXml(input: CancelacionInput): string {
  if (input.folios.length === 0) throw new RangeError('a Cancelacion needs at least one folio');
  const folios = input.folios
    .map((f) => {
      if (f.motivo === '01' && !f.folioSustitucion)
        throw new RangeError(`motive 01 needs FolioSustitucion (${f.uuid})`);
      const sustitucion =
        f.motivo === '01' ? ` FolioSustitucion="${escapeXml(f.folioSustitucion!.toUpperCase())}"` : '';
      return `<Folios><Folio UUID="${escapeXml(f.uuid.toUpperCase())}" Motivo="${f.motivo}"${sustitucion}/></Folios>`;
    })
    .join('');
  return (
    `<Cancelacion xmlns="${CANCELACION_NS}" xmlns:xsd="http://www.w3.org/2001/XMLSchema" ` +
    `xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" Fecha="${escapeXml(input.fecha)}" ` +
    `RfcEmisor="${escapeXml(input.rfcEmisor)}">${folios}</Cancelacion>`
  );
}
