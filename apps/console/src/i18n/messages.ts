import type {
  CancellationRecord, ConsoleRole, CsdView, DocumentKind, DocumentStatus, EventType, Motivo, PacAnswer, PlatformEventType, TransactionType, WebhookEndpointView,
} from '@cfdi/services';

/** A document's status as the console shows it: still `stamping` but waiting for an operator is worth its own label. */
export type DisplayStatus = DocumentStatus | 'needs_reconciliation';
type AttemptOutcome = 'succeeded' | 'failed';
type CancellationStatus = CancellationRecord['status'];
type DisabledReason = NonNullable<WebhookEndpointView['disabledReason']>;

/** Every text of the console, Spanish (es-MX, the default) and English. */
export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];

const es = {
  appName: 'Consola CFDI',
  signIn: 'Iniciar sesión', signOut: 'Cerrar sesión', email: 'Correo electrónico', password: 'Contraseña',
  badCredentials: 'Correo o contraseña incorrectos.', throttled: 'Demasiados intentos. Espera unos minutos e inténtalo de nuevo.',
  sessionExpired: 'Tu sesión terminó. Inicia sesión de nuevo.',
  overview: 'Resumen', ledger: 'Movimientos', documents: 'Documentos', merchants: 'Emisores', apiKeys: 'Llaves de API', webhooks: 'Webhooks',
  reconciliation: 'Conciliación', failedFiles: 'Archivos fallidos', audit: 'Bitácora', users: 'Usuarios',
  account: 'Cuenta', mode: 'Modo', test: 'Pruebas', live: 'Producción', language: 'Idioma', apply: 'Aplicar', search: 'Buscar', clear: 'Limpiar',
  balance: 'Saldo', timbresRemaining: 'Timbres disponibles', thisMonth: 'Este mes', timbres: 'Timbres', spend: 'Gasto', last12Months: 'Últimos 12 meses',
  pricePerTimbre: 'Precio por timbre',
  type: 'Tipo', date: 'Fecha', from: 'Desde', to: 'Hasta', reference: 'Referencia', amount: 'Importe', balanceAfter: 'Saldo después', note: 'Nota', exportCsv: 'Exportar CSV',
  uuid: 'UUID', receiver: 'Receptor (RFC o nombre)', serie: 'Serie', folio: 'Folio', status: 'Estado', kind: 'Clase', merchant: 'Emisor', minTotal: 'Total mínimo', maxTotal: 'Total máximo',
  total: 'Total', subtotal: 'Subtotal', discount: 'Descuento', any: 'Cualquiera', noResults: 'Sin resultados.', next: 'Siguientes',
  timeline: 'Historial', amounts: 'Importes', related: 'Documentos relacionados', cancellation: 'Cancelación', reason: 'Motivo', downloads: 'Descargas', acuse: 'Acuse',
  accepted: 'Recibido', stamped: 'Timbrado', cancelRequested: 'Cancelación solicitada', cancelled: 'Cancelado', failed: 'Falló',
  createKey: 'Crear llave', revoke: 'Revocar', revoked: 'Revocada', active: 'Activa', keyCreated: 'Llave creada. Cópiala ahora: no se volverá a mostrar.',
  merchantIdsOptional: 'Restringir a emisores (IDs separados por coma, opcional)',
  csd: 'CSD', validTo: 'Vigente hasta', csdExpiresSoon: 'El CSD vence en menos de 30 días', noCsd: 'Sin CSD',
  endpoints: 'Endpoints', attempts: 'Intentos', url: 'URL', events: 'Eventos', disabled: 'Desactivado',
  waitingSince: 'Esperando desde', pacAnswer: 'Respuesta del PAC', decide: 'Decidir', stampedWithUuid: 'Timbrado con UUID', notStamped: 'No timbrado',
  decisionSent: 'Decisión enviada al flujo de timbrado.', nothingWaiting: 'Nada espera conciliación.', lastLedgerAudit: 'Última auditoría del libro',
  renderAgain: 'Generar de nuevo', renderRequested: 'Se pidió generar los archivos de nuevo.',
  who: 'Quién', what: 'Qué', when: 'Cuándo', where: 'Desde', target: 'Objeto',
  role: 'Rol', createUser: 'Crear usuario', disable: 'Desactivar', resetPassword: 'Restablecer contraseña', userCreated: 'Usuario creado. Contraseña (se muestra una vez):',
  passwordReset: 'Contraseña restablecida (se muestra una vez):', notAllowed: 'Tu rol no permite esta página.',
  edit: 'Editar', save: 'Guardar cambios', userUpdated: 'Usuario actualizado:', limitToMerchants: 'Limitar a emisores (ninguno marcado: todos)',
  description: 'Descripción', created: 'Creada', prefix: 'Prefijo', merchantsLimit: 'Emisores', all: 'Todos',
  violations: 'Incidencias', none: 'Ninguna', notFound: 'No encontrado',
  // Machine values as people read them, one map per enum, keyed by the services' own types: `satisfies` makes a value
  // without a label a compile error here, and `en: typeof es` one in English. Render them with labelOf (format.ts).
  documentStatus: {
    stamping: 'Timbrando', stamped: 'Timbrado', stamp_failed: 'Falló el timbrado', cancel_pending: 'Cancelación pendiente', cancelled: 'Cancelado',
    needs_reconciliation: 'Requiere conciliación',
  } satisfies Record<DisplayStatus, string>,
  documentKind: {
    nominal: 'Factura nominativa', global: 'Factura global', credit_note: 'Nota de crédito', payment: 'Complemento de pago', nomina: 'Recibo de nómina',
  } satisfies Record<DocumentKind, string>,
  transactionType: {
    purchase: 'Compra de timbres', consume: 'Consumo de timbre', refund: 'Devolución de timbre', recharge: 'Recarga', adjustment: 'Ajuste', seed: 'Saldo inicial',
  } satisfies Record<TransactionType, string>,
  // Finance first: the create-user form lists them in this order, the usual choice on top.
  consoleRole: { finance: 'Finanzas', operator: 'Operador', admin: 'Administrador' } satisfies Record<ConsoleRole, string>,
  csdStatus: { active: 'Vigente', expired: 'Vencido' } satisfies Record<CsdView['status'], string>,
  cancellationStatus: { pending: 'En proceso', accepted: 'Aceptada', rejected: 'Rechazada por el receptor' } satisfies Record<CancellationStatus, string>,
  // The SAT's catalog of cancellation reasons (c_MotivoCancelacion), in its own words.
  cancellationReason: {
    '01': 'Comprobante emitido con errores con relación', '02': 'Comprobante emitido con errores sin relación',
    '03': 'No se llevó a cabo la operación', '04': 'Operación nominativa relacionada en una factura global',
  } satisfies Record<Motivo, string>,
  webhookEvent: {
    'invoice.stamped': 'Factura timbrada', 'invoice.stamp_failed': 'Falló el timbrado de una factura', 'invoice.needs_reconciliation': 'Factura requiere conciliación',
    'invoice.cancel_pending': 'Cancelación de factura pendiente', 'invoice.cancelled': 'Factura cancelada', 'invoice.cancellation_rejected': 'Cancelación de factura rechazada',
    'payment.stamped': 'Complemento de pago timbrado', 'payment.stamp_failed': 'Falló el timbrado de un complemento de pago', 'payment.needs_reconciliation': 'Complemento de pago requiere conciliación',
    'payment.cancel_pending': 'Cancelación de complemento de pago pendiente', 'payment.cancelled': 'Complemento de pago cancelado', 'payment.cancellation_rejected': 'Cancelación de complemento de pago rechazada',
    'nomina.stamped': 'Recibo de nómina timbrado', 'nomina.stamp_failed': 'Falló el timbrado de un recibo de nómina', 'nomina.needs_reconciliation': 'Recibo de nómina requiere conciliación',
    'nomina.cancel_pending': 'Cancelación de recibo de nómina pendiente', 'nomina.cancelled': 'Recibo de nómina cancelado', 'nomina.cancellation_rejected': 'Cancelación de recibo de nómina rechazada',
    'endpoint.disabled': 'Endpoint desactivado', '*': 'Todos los eventos',
  } satisfies Record<EventType | PlatformEventType | '*', string>,
  pacOutcome: { stamped: 'Timbrado', not_stamped: 'No timbrado', no_answer: 'Sin respuesta' } satisfies Record<PacAnswer['outcome'], string>,
  webhookAttempt: { succeeded: 'Entregado', failed: 'Falló' } satisfies Record<AttemptOutcome, string>,
  disabledReason: { requested: 'a solicitud', gone: 'el destino respondió 410', failing: 'falló demasiado tiempo' } satisfies Record<DisabledReason, string>,
};

const en: typeof es = {
  appName: 'CFDI console',
  signIn: 'Sign in', signOut: 'Sign out', email: 'E-mail', password: 'Password',
  badCredentials: 'Wrong e-mail or password.', throttled: 'Too many attempts. Wait a few minutes and try again.',
  sessionExpired: 'Your session ended. Sign in again.',
  overview: 'Overview', ledger: 'Ledger', documents: 'Documents', merchants: 'Merchants', apiKeys: 'API keys', webhooks: 'Webhooks',
  reconciliation: 'Reconciliation', failedFiles: 'Failed files', audit: 'Audit log', users: 'Users',
  account: 'Account', mode: 'Mode', test: 'Test', live: 'Live', language: 'Language', apply: 'Apply', search: 'Search', clear: 'Clear',
  balance: 'Balance', timbresRemaining: 'Timbres remaining', thisMonth: 'This month', timbres: 'Timbres', spend: 'Spend', last12Months: 'Last 12 months',
  pricePerTimbre: 'Price per timbre',
  type: 'Type', date: 'Date', from: 'From', to: 'To', reference: 'Reference', amount: 'Amount', balanceAfter: 'Balance after', note: 'Note', exportCsv: 'Export CSV',
  uuid: 'UUID', receiver: 'Receiver (RFC or name)', serie: 'Serie', folio: 'Folio', status: 'Status', kind: 'Kind', merchant: 'Merchant', minTotal: 'Minimum total', maxTotal: 'Maximum total',
  total: 'Total', subtotal: 'Subtotal', discount: 'Discount', any: 'Any', noResults: 'No results.', next: 'Next',
  timeline: 'Timeline', amounts: 'Amounts', related: 'Related documents', cancellation: 'Cancellation', reason: 'Reason', downloads: 'Downloads', acuse: 'Acuse',
  accepted: 'Accepted', stamped: 'Stamped', cancelRequested: 'Cancellation requested', cancelled: 'Cancelled', failed: 'Failed',
  createKey: 'Create key', revoke: 'Revoke', revoked: 'Revoked', active: 'Active', keyCreated: 'Key created. Copy it now: it will not be shown again.',
  merchantIdsOptional: 'Restrict to merchants (comma-separated ids, optional)',
  csd: 'CSD', validTo: 'Valid until', csdExpiresSoon: 'The CSD expires in less than 30 days', noCsd: 'No CSD',
  endpoints: 'Endpoints', attempts: 'Attempts', url: 'URL', events: 'Events', disabled: 'Disabled',
  waitingSince: 'Waiting since', pacAnswer: "PAC's answer", decide: 'Decide', stampedWithUuid: 'Stamped with UUID', notStamped: 'Not stamped',
  decisionSent: 'Decision sent to the stamp workflow.', nothingWaiting: 'Nothing awaits reconciliation.', lastLedgerAudit: 'Last ledger audit',
  renderAgain: 'Render again', renderRequested: 'The files will be rendered again.',
  who: 'Who', what: 'What', when: 'When', where: 'From', target: 'Target',
  role: 'Role', createUser: 'Create user', disable: 'Disable', resetPassword: 'Reset password', userCreated: 'User created. Password (shown once):',
  passwordReset: 'Password reset (shown once):', notAllowed: 'Your role does not allow this page.',
  edit: 'Edit', save: 'Save changes', userUpdated: 'User updated:', limitToMerchants: 'Limit to merchants (none ticked: all)',
  description: 'Description', created: 'Created', prefix: 'Prefix', merchantsLimit: 'Merchants', all: 'All',
  violations: 'Violations', none: 'None', notFound: 'Not found',
  documentStatus: {
    stamping: 'Stamping', stamped: 'Stamped', stamp_failed: 'Stamp failed', cancel_pending: 'Cancellation pending', cancelled: 'Cancelled',
    needs_reconciliation: 'Needs reconciliation',
  },
  documentKind: { nominal: 'Invoice', global: 'Global invoice', credit_note: 'Credit note', payment: 'Payment complement', nomina: 'Payroll receipt' },
  transactionType: {
    purchase: 'Timbre purchase', consume: 'Timbre used', refund: 'Timbre refund', recharge: 'Recharge', adjustment: 'Adjustment', seed: 'Opening balance',
  },
  consoleRole: { finance: 'Finance', operator: 'Operator', admin: 'Administrator' },
  csdStatus: { active: 'Valid', expired: 'Expired' },
  cancellationStatus: { pending: 'In progress', accepted: 'Accepted', rejected: 'Rejected by the receiver' },
  cancellationReason: {
    '01': 'Issued with errors, replaced', '02': 'Issued with errors, not replaced',
    '03': 'The operation did not take place', '04': 'Nominative operation included in a global invoice',
  },
  webhookEvent: {
    'invoice.stamped': 'Invoice stamped', 'invoice.stamp_failed': 'Invoice stamp failed', 'invoice.needs_reconciliation': 'Invoice needs reconciliation',
    'invoice.cancel_pending': 'Invoice cancellation pending', 'invoice.cancelled': 'Invoice cancelled', 'invoice.cancellation_rejected': 'Invoice cancellation rejected',
    'payment.stamped': 'Payment complement stamped', 'payment.stamp_failed': 'Payment complement stamp failed', 'payment.needs_reconciliation': 'Payment complement needs reconciliation',
    'payment.cancel_pending': 'Payment complement cancellation pending', 'payment.cancelled': 'Payment complement cancelled', 'payment.cancellation_rejected': 'Payment complement cancellation rejected',
    'nomina.stamped': 'Payroll receipt stamped', 'nomina.stamp_failed': 'Payroll receipt stamp failed', 'nomina.needs_reconciliation': 'Payroll receipt needs reconciliation',
    'nomina.cancel_pending': 'Payroll receipt cancellation pending', 'nomina.cancelled': 'Payroll receipt cancelled', 'nomina.cancellation_rejected': 'Payroll receipt cancellation rejected',
    'endpoint.disabled': 'Endpoint disabled', '*': 'All events',
  },
  pacOutcome: { stamped: 'Stamped', not_stamped: 'Not stamped', no_answer: 'No answer' },
  webhookAttempt: { succeeded: 'Delivered', failed: 'Failed' },
  disabledReason: { requested: 'on request', gone: 'the receiver answered 410', failing: 'failing for too long' },
};

export const MESSAGES: Record<Locale, typeof es> = { es, en };
export type Messages = typeof es;
