import type { ProblemCode, ProblemCodeEntry } from './problem-codes';

/** What a code's Spanish page says: the English entry's texts, translated (status and scope are the entry's own). */
export type ProblemCodeTexts = Pick<ProblemCodeEntry, 'title' | 'meaning' | 'fix' | 'source'>;

/**
 * The Spanish page of every problem code, at `{DOCS_URL}/es/errors/<code>`. Keyed by `ProblemCode`, so a code
 * registered without its Spanish text does not compile; reference-site.test.ts checks that a code with a `source`
 * has one here too.
 */
export const PROBLEM_CODES_ES: Readonly<Record<ProblemCode, ProblemCodeTexts>> = {
  validation_error: {
    title: 'Validación fallida',
    meaning:
      'Un campo de la petición no pasó la validación: el cuerpo, la consulta, un parámetro de la ruta o un encabezado. `errors[]` lista cada campo inválido con su `path` en JSON pointer (p. ej. `/items/0/unitPrice`). Un CSD que no se puede usar lleva además un `subcode` (`csd_invalid_certificate`, `csd_invalid_key`, `csd_wrong_password`, `csd_key_mismatch`, `csd_is_fiel`, `csd_expired`, `csd_not_yet_valid`, `csd_rfc_mismatch`, `csd_pac_rejected`).',
    fix: 'Corrige cada campo de `errors[]` y envía la petición de nuevo; una petición nueva necesita otra Idempotency-Key solo si su cuerpo cambia. Las reglas fiscales (CFDI 4.0, Nómina 1.2, pagos) se revisan antes de reservar un timbre: no se cobró nada.',
    source:
      'Las revisiones fiscales siguen la matriz de validación del CFDI 4.0 del SAT (Anexo 20); el mensaje nombra la regla del SAT (p. ej. CFDI40103) cuando la hay.',
  },
  unauthorized: {
    title: 'No autorizado',
    meaning: 'La petición no trae el encabezado `Authorization`, o su llave de API no existe o fue revocada.',
    fix: 'Envía `Authorization: Bearer sk_test_…` (modo de prueba) o `sk_live_…` (modo real) con una llave activa en la consola o en `cfdi keys list`.',
  },
  insufficient_credits: {
    title: 'Saldo insuficiente',
    meaning:
      'El saldo no alcanza para un timbre. Timbrar y cancelar reservan un timbre antes de enviar nada al PAC.',
    fix: 'Recarga el saldo (`POST /v1/billing/checkout_sessions`, o la consola) y reintenta con la misma Idempotency-Key. En modo de prueba un operador recarga gratis con `cfdi balance adjust --recharge`.',
  },
  monthly_limit_reached: {
    title: 'Límite mensual alcanzado',
    meaning: 'La cuenta ya timbró este mes tantos documentos como permite su límite mensual.',
    fix: 'Espera al siguiente mes calendario, o pide a un operador que suba el límite mensual de la cuenta.',
  },
  forbidden: {
    title: 'Prohibido',
    meaning:
      'Se sabe quién llama, pero no puede hacer esto: una llave restringida fuera de sus emisores, un rol de la consola que no permite la acción, una conexión MCP con el permiso `read` llamando una herramienta que escribe, `/metrics` sin su token, o una URL firmada de un archivo vencida o alterada.',
    fix: 'Usa una llave que cubra el emisor y la operación, conecta de nuevo la aplicación MCP aprobando escritura, o pide una URL firmada nueva consultando otra vez el documento.',
  },
  not_found: {
    title: 'No encontrado',
    meaning:
      'No existe ese recurso en esta cuenta y modo. El id de otra cuenta, o un id de prueba usado con una llave real, responde igual que un id que nunca existió.',
    fix: 'Revisa el id y que el modo de la llave (`sk_test_` / `sk_live_`) sea en el que se creó el recurso. Si un archivo aún no está generado, reintenta después de `Retry-After`.',
  },
  method_not_allowed: {
    title: 'Método no permitido',
    meaning:
      'El endpoint MCP no guarda sesión: no hay flujo de sesión que pedir con GET ni sesión que borrar con DELETE.',
    fix: 'Envía los mensajes JSON-RPC con POST a `/mcp/test` o `/mcp/live`.',
  },
  request_timeout: {
    title: 'Tiempo de espera agotado',
    meaning: 'El servidor no recibió la petición completa a tiempo.',
    fix: 'Envía la petición de nuevo, de una vez; revisa los proxies que retienen o detienen las cargas.',
  },
  receipt_not_open: {
    title: 'Nota de venta no abierta',
    meaning:
      'La nota de venta ya se facturó (por su cliente en el portal o por la API), entró en una factura global o se canceló; solo una nota abierta se puede facturar o cancelar. La respuesta dice qué fue de ella.',
    fix: 'Consulta la nota: `invoiceId` nombra la factura que la cubre. Para deshacer una nota facturada, cancela esa factura.',
  },
  no_open_receipts: {
    title: 'Sin notas de venta abiertas',
    meaning:
      'El periodo no tiene ninguna nota de venta que poner en una factura global: cada venta se facturó a su cliente o se canceló, o no hubo ventas. No se guardó ni se cobró nada.',
    fix: 'Nada que hacer. Lista las notas del periodo (`GET /v1/receipts?merchantId=…`) para ver qué fue de cada una.',
  },
  request_in_flight: {
    title: 'Conflicto',
    meaning: 'Otra petición con la misma Idempotency-Key todavía se está procesando.',
    fix: 'Espera un momento y reintenta con la misma llave: recibirás la respuesta de la primera petición, nunca un segundo documento.',
  },
  csd_already_exists: {
    title: 'Conflicto',
    meaning: 'El emisor ya tiene un CSD; `POST` agrega solo el primero.',
    fix: 'Reemplázalo con `PUT /v1/merchants/{id}/csd`.',
  },
  cancellation_in_progress: {
    title: 'Conflicto',
    meaning: 'Ya se está solicitando la cancelación de este documento.',
    fix: 'Espera su resultado (`cancellation.status` del documento, o el webhook `*.cancelled`) antes de pedirla otra vez.',
  },
  document_not_stamped: {
    title: 'Conflicto',
    meaning:
      'Solo un documento timbrado o cancelado se puede enviar por correo; este todavía se está timbrando, falló o es un borrador.',
    fix: 'Espera a que el documento esté timbrado (o timbra el borrador) y envíalo entonces.',
  },
  document_files_unavailable: {
    title: 'Conflicto',
    meaning:
      'El documento no tiene XML timbrado en este servidor (se registró por decisión de un operador), así que no hay nada que adjuntar.',
    fix: 'Obtén el XML del portal del SAT o del PAC; el documento no se puede enviar por correo desde aquí.',
  },
  not_a_draft: {
    title: 'Conflicto',
    meaning:
      'Solo un borrador se puede editar, timbrar o borrar; este documento ya se está timbrando, está timbrado o falló.',
    fix: 'Consulta el documento para ver su estado. Para cambiar un documento timbrado, cancélalo y emite uno nuevo.',
  },
  sku_already_exists: {
    title: 'Conflicto',
    meaning:
      'Otro producto guardado de esta cuenta y modo ya tiene este SKU; cada SKU nombra un solo producto vigente.',
    fix: 'Usa otro SKU, actualiza el producto existente (búscalo con `GET /v1/products?sku=…`) o bórralo primero.',
  },
  console_user_disabled: {
    title: 'Conflicto',
    meaning: 'El usuario de la consola está deshabilitado, así que su rol y su alcance no se pueden cambiar.',
    fix: 'Un usuario deshabilitado sigue así: crea un usuario nuevo (`cfdi console-users create`) si necesita acceso otra vez.',
  },
  last_admin: {
    title: 'Conflicto',
    meaning: 'Este cambio dejaría la consola sin un administrador activo.',
    fix: 'Haz administrador a otro usuario primero y después cambia este.',
  },
  not_replaceable: {
    title: 'Conflicto',
    meaning:
      'Solo una factura timbrada y sin cancelación en curso se puede sustituir por una nueva (relación 04).',
    fix: 'Abre la factura para ver su estado; una factura cancelada no necesita sustituta: se emite una factura nueva.',
  },
  payload_too_large: {
    title: 'Cuerpo demasiado grande',
    meaning: 'El cuerpo de la petición pesa más de 1 MB.',
    fix: 'Envía menos conceptos por documento (500 como máximo), un logotipo más pequeño (500 KB decodificado como máximo) o divide un lote de nómina.',
  },
  unsupported_media_type: {
    title: 'Tipo de contenido no admitido',
    meaning: 'El cuerpo no es JSON.',
    fix: 'Envía el cuerpo como JSON con `Content-Type: application/json`.',
  },
  idempotency_key_reuse: {
    title: 'Llave de idempotencia reutilizada',
    meaning: 'Esta Idempotency-Key ya se usó con un cuerpo de petición distinto.',
    fix: 'Usa una llave nueva para una petición nueva. Reutiliza una llave solo para reintentar exactamente la misma petición.',
  },
  sat_rejected: {
    title: 'Rechazado por el SAT o el PAC',
    meaning:
      'El SAT o el PAC rechazó el documento o su cancelación. `satCode` lleva su código (p. ej. `CFDI40145`, `702`, `205`) o el nuestro cuando el documento no se pudo sellar (`csd_expired`, `csd_unavailable`, `duplicate_cfdi`). El timbre reservado se reembolsó.',
    fix: 'Lee `detail` y `satCode`, corrige el documento (o el CSD del emisor) y envíalo como petición nueva con una Idempotency-Key nueva.',
    source:
      'Los códigos CFDI40xxx son la matriz de validación del CFDI 4.0 del SAT (Anexo 20, «Matriz de errores»); los de 3 dígitos son los códigos de timbrado del PAC (p. ej. 702: emisor no registrado con el PAC); los de cancelación (201–208, `no_cancelable`) son las respuestas del servicio de cancelación del SAT.',
  },
  rate_limited: {
    title: 'Demasiadas peticiones',
    meaning:
      'La cuenta envió en este minuto más peticiones que su límite (300 por minuto, salvo otra configuración).',
    fix: 'Espera los segundos que indica `Retry-After` y reintenta; `X-RateLimit-Remaining` dice cuántas peticiones quedan.',
  },
  headers_too_large: {
    title: 'Encabezados demasiado grandes',
    meaning: 'Los encabezados de la petición pesan más de lo que acepta el servidor.',
    fix: 'Envía menos encabezados o más cortos (las cookies que agrega un proxy son una causa común).',
  },
  internal_error: {
    title: 'Error interno',
    meaning:
      'Algo inesperado falló en el servidor. Quedó registrado; no se muestra nada de ello a quien llama.',
    fix: 'Reintenta con la misma Idempotency-Key: un documento que ya se creó se devuelve, nunca se crea dos veces. Si persiste, dile al operador la hora de la petición.',
  },
  pac_unavailable: {
    title: 'Servicio no disponible',
    meaning:
      'No se pudo contactar al PAC o no aceptó la petición. No se timbró ni se canceló nada, y el timbre se reembolsó.',
    fix: 'Reintenta más tarde con la misma Idempotency-Key.',
  },
  billing_unavailable: {
    title: 'Servicio no disponible',
    meaning: 'La facturación del servicio (Stripe) no está configurada en este servidor para este modo.',
    fix: 'Pide al operador que configure Stripe. En modo de prueba `cfdi balance adjust --recharge` recarga un saldo gratis.',
  },
  encryption_unavailable: {
    title: 'Servicio no disponible',
    meaning:
      'El servidor no tiene MASTER_KEY, así que no puede guardar cifrados los secretos (llaves de CSD, secretos de webhooks).',
    fix: 'Pide al operador que defina MASTER_KEY (docs/operations.md).',
  },
  email_unavailable: {
    title: 'Servicio no disponible',
    meaning: 'El correo no está configurado en este servidor (no hay SMTP_URL); no se envió nada.',
    fix: 'Pide al operador que configure SMTP_URL, o descarga los archivos y envíalos tú.',
  },
};
