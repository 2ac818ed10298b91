/** Finkok service layout: one SOAP endpoint and target namespace per service. */
export const FINKOK_SERVICES = {
  stamp: { path: '/servicios/soap/stamp', namespace: 'http://facturacion.finkok.com/stamp' },
  cancel: { path: '/servicios/soap/cancel', namespace: 'http://facturacion.finkok.com/cancel' },
  registration: {
    path: '/servicios/soap/registration',
    namespace: 'http://facturacion.finkok.com/registration',
  },
  retentions: { path: '/servicios/soap/retentions', namespace: 'http://facturacion.finkok.com/retentions' },
} as const;

export type FinkokService = keyof typeof FINKOK_SERVICES;

/** Namespace of Finkok's result types (`AcuseRecepcionCFDI`, `Incidencia`, `CancelaCFDResult`, …). */
export const FINKOK_TYPES_NS = 'apps.services.soap.core.views';

/** The operations this client and the sandbox speak, with the service each belongs to. */
export const FINKOK_OPERATIONS = {
  stamp: 'stamp',
  stamped: 'stamp',
  query_pending: 'stamp',
  cancel_signature: 'cancel',
  get_sat_status: 'cancel',
  get_receipt: 'cancel',
  add: 'registration',
  edit: 'registration',
  get: 'registration',
  retention_stamp: 'retentions',
  retention_stamped: 'retentions',
  retention_cancel_signature: 'retentions',
} as const satisfies Record<string, FinkokService>;

export type FinkokOperation = keyof typeof FINKOK_OPERATIONS;

/**
 * The operation's element name on the wire. The retentions service reuses the stamp and cancel services' names
 * (`stamp`, `stamped`, `cancel_signature`), so its operations carry a prefix here to stay one key per operation.
 */
export const finkokWireName = (operation: FinkokOperation): string => operation.replace(/^retention_/, '');

export const COD_ESTATUS = {
  stamped: 'Comprobante timbrado satisfactoriamente',
  previouslyStamped: 'Comprobante timbrado previamente',
  received: 'Comprobante recibido satisfactoriamente',
} as const;
