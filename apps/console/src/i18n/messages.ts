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
  timeline: 'Historial', amounts: 'Importes', related: 'Documentos relacionados', cancellation: 'Cancelación', downloads: 'Descargas', acuse: 'Acuse',
  accepted: 'Recibido', stamped: 'Timbrado', cancelRequested: 'Cancelación solicitada', cancelled: 'Cancelado', failed: 'Falló',
  createKey: 'Crear llave', revoke: 'Revocar', revoked: 'Revocada', active: 'Activa', keyCreated: 'Llave creada. Cópiala ahora: no se volverá a mostrar.',
  merchantIdsOptional: 'Restringir a emisores (IDs separados por coma, opcional)',
  csd: 'CSD', validTo: 'Vigente hasta', csdExpiresSoon: 'El CSD vence en menos de 30 días', csdExpired: 'CSD vencido', noCsd: 'Sin CSD',
  endpoints: 'Endpoints', attempts: 'Intentos', url: 'URL', events: 'Eventos', disabled: 'Desactivado',
  waitingSince: 'Esperando desde', pacAnswer: 'Respuesta del PAC', decide: 'Decidir', stampedWithUuid: 'Timbrado con UUID', notStamped: 'No timbrado',
  decisionSent: 'Decisión enviada al flujo de timbrado.', nothingWaiting: 'Nada espera conciliación.', lastLedgerAudit: 'Última auditoría del libro',
  renderAgain: 'Generar de nuevo', renderRequested: 'Se pidió generar los archivos de nuevo.',
  who: 'Quién', what: 'Qué', when: 'Cuándo', where: 'Desde', target: 'Objeto',
  role: 'Rol', createUser: 'Crear usuario', disable: 'Desactivar', resetPassword: 'Restablecer contraseña', userCreated: 'Usuario creado. Contraseña (se muestra una vez):',
  passwordReset: 'Contraseña restablecida (se muestra una vez):', notAllowed: 'Tu rol no permite esta página.',
  description: 'Descripción', created: 'Creada', prefix: 'Prefijo', merchantsLimit: 'Emisores', all: 'Todos',
  violations: 'Incidencias', none: 'Ninguna', notFound: 'No encontrado',
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
  timeline: 'Timeline', amounts: 'Amounts', related: 'Related documents', cancellation: 'Cancellation', downloads: 'Downloads', acuse: 'Acuse',
  accepted: 'Accepted', stamped: 'Stamped', cancelRequested: 'Cancellation requested', cancelled: 'Cancelled', failed: 'Failed',
  createKey: 'Create key', revoke: 'Revoke', revoked: 'Revoked', active: 'Active', keyCreated: 'Key created. Copy it now: it will not be shown again.',
  merchantIdsOptional: 'Restrict to merchants (comma-separated ids, optional)',
  csd: 'CSD', validTo: 'Valid until', csdExpiresSoon: 'The CSD expires in less than 30 days', csdExpired: 'CSD expired', noCsd: 'No CSD',
  endpoints: 'Endpoints', attempts: 'Attempts', url: 'URL', events: 'Events', disabled: 'Disabled',
  waitingSince: 'Waiting since', pacAnswer: "PAC's answer", decide: 'Decide', stampedWithUuid: 'Stamped with UUID', notStamped: 'Not stamped',
  decisionSent: 'Decision sent to the stamp workflow.', nothingWaiting: 'Nothing awaits reconciliation.', lastLedgerAudit: 'Last ledger audit',
  renderAgain: 'Render again', renderRequested: 'The files will be rendered again.',
  who: 'Who', what: 'What', when: 'When', where: 'From', target: 'Target',
  role: 'Role', createUser: 'Create user', disable: 'Disable', resetPassword: 'Reset password', userCreated: 'User created. Password (shown once):',
  passwordReset: 'Password reset (shown once):', notAllowed: 'Your role does not allow this page.',
  description: 'Description', created: 'Created', prefix: 'Prefix', merchantsLimit: 'Merchants', all: 'All',
  violations: 'Violations', none: 'None', notFound: 'Not found',
};

export const MESSAGES: Record<Locale, typeof es> = { es, en };
export type Messages = typeof es;
