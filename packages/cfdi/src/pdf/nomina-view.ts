import { kids, type XmlNode } from '../cadena/tree';
import { NS } from '../xml/dom';

type Attrs = Record<string, string>;

/** What the recibo de nómina prints from the Nómina 1.2 complement. */
export interface NominaPrint {
  attrs: Attrs;
  emisor: Attrs;
  receptor: Attrs;
  percepciones: { totals: Attrs; rows: Attrs[]; horasExtra: Attrs[]; separacion?: Attrs; jubilacion?: Attrs };
  deducciones: { totals: Attrs; rows: Attrs[] };
  otrosPagos: Array<Attrs & { SubsidioCausado?: string }>;
  incapacidades: Attrs[];
}

export function readNomina(nomina: XmlNode, attrs: (el: XmlNode | undefined) => Attrs): NominaPrint {
  const N = NS.nomina12;
  const one = (parent: XmlNode | undefined, name: string) => (parent ? kids(parent, N, name)[0] : undefined);
  const percepciones = one(nomina, 'Percepciones');
  const deducciones = one(nomina, 'Deducciones');
  const percepcionRows = percepciones ? kids(percepciones, N, 'Percepcion') : [];
  const separacion = one(percepciones, 'SeparacionIndemnizacion');
  const jubilacion = one(percepciones, 'JubilacionPensionRetiro');
  return {
    attrs: attrs(nomina),
    emisor: attrs(one(nomina, 'Emisor')),
    receptor: attrs(one(nomina, 'Receptor')),
    percepciones: {
      totals: attrs(percepciones),
      rows: percepcionRows.map(attrs),
      horasExtra: percepcionRows.flatMap((p) =>
        kids(p, N, 'HorasExtra').map((h) => ({ ...attrs(h), Clave: p.attributes.get('Clave') ?? '' })),
      ),
      ...(separacion ? { separacion: attrs(separacion) } : {}),
      ...(jubilacion ? { jubilacion: attrs(jubilacion) } : {}),
    },
    deducciones: {
      totals: attrs(deducciones),
      rows: deducciones ? kids(deducciones, N, 'Deduccion').map(attrs) : [],
    },
    otrosPagos: (one(nomina, 'OtrosPagos') ? kids(one(nomina, 'OtrosPagos')!, N, 'OtroPago') : []).map(
      (o) => {
        const subsidio = one(o, 'SubsidioAlEmpleo');
        return {
          ...attrs(o),
          ...(subsidio ? { SubsidioCausado: subsidio.attributes.get('SubsidioCausado') ?? '' } : {}),
        };
      },
    ),
    incapacidades: one(nomina, 'Incapacidades')
      ? kids(one(nomina, 'Incapacidades')!, N, 'Incapacidad').map(attrs)
      : [],
  };
}
