import type { ReconciliationRefusal } from '@cfdi/services';

/** Why the reconciliation queue refused a decision: the services' refusal reasons and which input rule it broke. */
export type RefusalCode =
  | ReconciliationRefusal['reason']
  | 'unknown_document'
  | 'decision'
  | 'uuid_missing'
  | 'uuid_format'
  | 'uuid_without_stamp'
  | 'note_missing'
  | 'note_too_long';

/** Why "render again" did not render (the cause goes into the audit row's detail, never into a URL). */
export type RenderRefusal = 'unknown_document' | 'nothing_to_render' | 'still_failed';

/** The lists' count and pagination texts and the operator pages' newer ones, Spanish and English; spread into messages.ts. */
export const listEs = {
  /** "1–50 de 123" above a list; "más de 10,000" when the count stopped at its cap. */
  rangeOf: 'de',
  moreThan: 'más de',
  results: 'resultados',
  pagination: 'Paginación',
  previous: 'Anteriores',
  pageN: 'Página',
  /** A webhook endpoint still enabled whose deliveries keep failing. */
  failingSince: 'Fallando desde',
  reconcileRefusal: {
    not_awaiting:
      'Este documento ya no espera conciliación (otra decisión o el PAC lo resolvieron); no se hizo nada.',
    uuid_of_another_document: 'Ese UUID es el timbre de otro documento; no se hizo nada.',
    pac_disagrees:
      'El PAC no confirma ese UUID para este documento (tiene otro o ninguno); no se hizo nada. Revisa la respuesta del PAC.',
    unknown_document: 'Documento desconocido.',
    decision: 'Elige "timbrado" o "no timbrado".',
    uuid_missing: 'Una decisión "timbrado" necesita el UUID del timbre.',
    uuid_format: 'El UUID debe tener 8-4-4-4-12 dígitos hexadecimales.',
    uuid_without_stamp: 'El UUID va solo con una decisión "timbrado".',
    note_missing: 'Di por qué: la nota se guarda con la decisión.',
    note_too_long: 'La nota admite hasta 500 caracteres.',
  } satisfies Record<RefusalCode, string>,
  revokeConfirm: '¿Revocar esta llave? Toda llamada que la use fallará de inmediato y no se puede deshacer:',
  revokeConfirmButton: 'Sí, revocar',
  cancelAction: 'Cancelar',
  renderRefusal: {
    unknown_document: 'Documento desconocido.',
    nothing_to_render: 'No hay archivos que generar: no está timbrado o se confirmó sin el XML del PAC.',
    still_failed: 'Los archivos volvieron a fallar; la causa está en el log del worker.',
  } satisfies Record<RenderRefusal, string>,
  cannotRenderWithoutXml: 'Sin el XML del PAC (confirmado sin XML): no hay archivos que generar.',
};

export const listEn: typeof listEs = {
  rangeOf: 'of',
  moreThan: 'more than',
  results: 'results',
  pagination: 'Pagination',
  previous: 'Previous',
  pageN: 'Page',
  failingSince: 'Failing since',
  reconcileRefusal: {
    not_awaiting:
      'This document is no longer awaiting reconciliation (another decision or the PAC resolved it); nothing done.',
    uuid_of_another_document: "That UUID is another document's stamp; nothing done.",
    pac_disagrees:
      "The PAC does not confirm that UUID for this document (it holds another or none); nothing done. Check the PAC's answer.",
    unknown_document: 'Unknown document.',
    decision: 'Choose "stamped" or "not stamped".',
    uuid_missing: 'A "stamped" decision needs the stamp\'s UUID.',
    uuid_format: 'The UUID must be 8-4-4-4-12 hexadecimal digits.',
    uuid_without_stamp: 'The UUID goes with a "stamped" decision only.',
    note_missing: 'Say why: the note is kept with the decision.',
    note_too_long: 'The note must be at most 500 characters.',
  },
  revokeConfirm: 'Revoke this key? Every call using it fails at once, and it cannot be undone:',
  revokeConfirmButton: 'Yes, revoke',
  cancelAction: 'Cancel',
  renderRefusal: {
    unknown_document: 'Unknown document.',
    nothing_to_render: "Nothing to render: it is not stamped, or it was confirmed without the PAC's XML.",
    still_failed: "The files failed again; the cause is in the worker's log.",
  },
  cannotRenderWithoutXml: "Without the PAC's XML (confirmed without XML): there are no files to render.",
};
