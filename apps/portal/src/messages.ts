/** The portal's texts, Spanish (the customers' language) and English. */
const es = {
  title: 'Facturación de tickets',
  language: 'Idioma',
  switchTo: 'English',
  intro:
    'Escribe la clave de tu ticket (16 caracteres, impresa bajo el código QR) para obtener tu factura electrónica (CFDI).',
  keyLabel: 'Clave del ticket',
  keyHelp:
    'Puedes escribirla con o sin guiones, en mayúsculas o minúsculas. La letra O se lee como cero y las letras I y L como uno.',
  find: 'Buscar ticket',
  ticket: 'Ticket',
  tickets: 'Tickets a facturar',
  soldAt: 'Fecha de compra',
  branch: 'Sucursal',
  description: 'Concepto',
  quantity: 'Cantidad',
  amount: 'Importe',
  total: 'Total',
  totalInvoice: 'Total de la factura',
  expiresAt: 'Puedes facturarlo hasta el',
  addTicket: 'Agregar otro ticket del mismo comercio',
  addKeyLabel: 'Clave de otro ticket',
  add: 'Agregar',
  notAdded:
    'Ese ticket no se puede agregar. Revisa la clave; solo se juntan tickets del mismo comercio que aún no se hayan facturado ni hayan vencido.',
  unavailableTitle: 'Este ticket no se puede facturar aquí',
  unavailable:
    'Revisa que la clave esté bien escrita. Si lo está, puede ser que el ticket ya se haya facturado, que haya vencido el plazo para facturarlo (normalmente el fin del mes de la compra) o que la venta se haya cancelado. Si tú lo facturaste, la factura llegó al correo que diste. Para cualquier otra aclaración acude al comercio con tu ticket.',
  tryAnother: 'Escribir otra clave',
  tooManyTitle: 'Demasiados intentos',
  tooMany: 'Hiciste demasiados intentos en poco tiempo. Espera un minuto y vuelve a intentarlo.',
  yourData: 'Tus datos fiscales',
  dataIntro:
    'Escribe los datos exactamente como aparecen en tu Constancia de Situación Fiscal (la obtienes en sat.gob.mx). Si no coinciden, el SAT rechaza la factura.',
  rfc: 'RFC',
  rfcHelp:
    '12 caracteres si eres empresa (persona moral), 13 si eres persona física. Sin espacios ni guiones.',
  rfcError: 'Este RFC no es válido. Revísalo en tu Constancia de Situación Fiscal.',
  legalName: 'Nombre o razón social',
  legalNameHelp:
    'Tal como aparece en tu Constancia, en mayúsculas y sin el régimen societario: escribe «EMPRESA EJEMPLO», no «EMPRESA EJEMPLO SA DE CV».',
  legalNameError: 'Escribe tu nombre o razón social como aparece en tu Constancia.',
  zip: 'Código postal del domicilio fiscal',
  zipHelp:
    'El de tu domicilio fiscal registrado ante el SAT (aparece en tu Constancia), no el de donde compraste ni el de tu casa si es otro.',
  zipError: 'Escribe los 5 dígitos del código postal de tu domicilio fiscal.',
  regimen: 'Régimen fiscal',
  regimenHelp:
    'El que aparece en tu Constancia. Solo se muestran los regímenes que corresponden a tu tipo de RFC (persona física o moral).',
  regimenError: 'Este régimen no corresponde a tu RFC. Elige el de tu Constancia.',
  uso: 'Uso del CFDI',
  usoHelp:
    'Para qué usarás la factura. Si no sabes, «G03 Gastos en general» es el más común; «S01 Sin efectos fiscales» si no la vas a deducir.',
  usoError: 'Este uso no corresponde a tu régimen fiscal. Elige otro.',
  email: 'Correo electrónico',
  emailHelp: 'Te enviamos ahí el PDF y el XML. Opcional: también puedes descargarlos al terminar.',
  emailError: 'Escribe un correo válido, por ejemplo nombre@ejemplo.com.',
  submit: 'Generar factura',
  submitting: 'Generando…',
  problem: 'Revisa los datos marcados.',
  serviceError:
    'No pudimos generar la factura en este momento. Inténtalo más tarde o acude al comercio con tu ticket.',
  choose: 'Elige…',
  stampedTitle: 'Tu factura está lista',
  folioFiscal: 'Folio fiscal (UUID)',
  receiver: 'Receptor',
  downloadXml: 'Descargar XML',
  downloadPdf: 'Descargar PDF',
  emailed: 'También la enviamos a',
  emailFailed: 'No pudimos enviar el correo; descarga tus archivos aquí.',
  stampingTitle: 'Estamos generando tu factura',
  stamping: 'Esto tarda unos segundos. La página se actualiza sola.',
  failedTitle: 'El SAT rechazó la factura',
  failed:
    'Casi siempre es porque el nombre, el código postal o el régimen no coinciden con tu Constancia de Situación Fiscal. Tus tickets siguen disponibles: corrige los datos e inténtalo otra vez.',
  satSays: 'Motivo que dio el SAT',
  fixData: 'Corregir mis datos',
  expiredLink: 'Este enlace ya no es válido. Si facturaste, revisa tu correo.',
  poweredBy: 'Factura electrónica CFDI 4.0',
};

export type Messages = typeof es;

const en: Messages = {
  title: 'Receipt invoicing',
  language: 'Language',
  switchTo: 'Español',
  intro:
    'Type the key of your receipt (16 characters, printed under the QR code) to get your electronic invoice (CFDI).',
  keyLabel: 'Receipt key',
  keyHelp:
    'With or without dashes, upper or lower case. The letter O reads as zero and the letters I and L as one.',
  find: 'Find receipt',
  ticket: 'Receipt',
  tickets: 'Receipts to invoice',
  soldAt: 'Date of purchase',
  branch: 'Branch',
  description: 'Item',
  quantity: 'Quantity',
  amount: 'Amount',
  total: 'Total',
  totalInvoice: 'Invoice total',
  expiresAt: 'You can invoice it until',
  addTicket: 'Add another receipt of the same shop',
  addKeyLabel: 'Key of another receipt',
  add: 'Add',
  notAdded:
    'That receipt cannot be added. Check the key; only receipts of the same shop that are neither invoiced nor expired go together.',
  unavailableTitle: 'This receipt cannot be invoiced here',
  unavailable:
    'Check that the key is typed correctly. If it is, the receipt may already be invoiced, the time to invoice it may have run out (usually the end of the month of the purchase), or the sale may have been cancelled. If you invoiced it, the invoice went to the e-mail address you gave. For anything else, ask the shop with your receipt.',
  tryAnother: 'Type another key',
  tooManyTitle: 'Too many attempts',
  tooMany: 'You made too many attempts in a short time. Wait a minute and try again.',
  yourData: 'Your tax details',
  dataIntro:
    'Type your details exactly as your Constancia de Situación Fiscal shows them (from sat.gob.mx). If they differ, the SAT refuses the invoice.',
  rfc: 'RFC (tax id)',
  rfcHelp:
    '12 characters for a company (persona moral), 13 for an individual (persona física). No spaces or dashes.',
  rfcError: 'This RFC is not valid. Check it on your Constancia de Situación Fiscal.',
  legalName: 'Name or legal name',
  legalNameHelp:
    'As on your Constancia, in capitals and without the company type: type "EMPRESA EJEMPLO", not "EMPRESA EJEMPLO SA DE CV".',
  legalNameError: 'Type your name or legal name as your Constancia shows it.',
  zip: 'Postal code of your tax address',
  zipHelp:
    'The one of your tax address registered with the SAT (on your Constancia), not where you bought nor your home if it is another.',
  zipError: 'Type the 5 digits of the postal code of your tax address.',
  regimen: 'Tax regime',
  regimenHelp:
    'The one on your Constancia. Only the regimes of your kind of RFC (individual or company) are listed.',
  regimenError: 'This regime does not match your RFC. Choose the one on your Constancia.',
  uso: 'CFDI use',
  usoHelp:
    'What you will use the invoice for. If unsure, "G03 Gastos en general" (general expenses) is the most common; "S01 Sin efectos fiscales" if you will not deduct it.',
  usoError: 'This use does not match your tax regime. Choose another.',
  email: 'E-mail',
  emailHelp: 'We send the PDF and XML there. Optional: you can also download them at the end.',
  emailError: 'Type a valid e-mail address, such as name@example.com.',
  submit: 'Create invoice',
  submitting: 'Creating…',
  problem: 'Check the marked fields.',
  serviceError:
    'We could not create the invoice just now. Try again later or ask the shop with your receipt.',
  choose: 'Choose…',
  stampedTitle: 'Your invoice is ready',
  folioFiscal: 'Fiscal folio (UUID)',
  receiver: 'Receiver',
  downloadXml: 'Download XML',
  downloadPdf: 'Download PDF',
  emailed: 'We also sent it to',
  emailFailed: 'We could not send the e-mail; download your files here.',
  stampingTitle: 'We are creating your invoice',
  stamping: 'This takes a few seconds. The page refreshes by itself.',
  failedTitle: 'The SAT refused the invoice',
  failed:
    'Almost always the name, the postal code or the regime do not match your Constancia de Situación Fiscal. Your receipts are still available: correct your details and try again.',
  satSays: 'The SAT’s reason',
  fixData: 'Correct my details',
  expiredLink: 'This link is no longer valid. If you invoiced, check your e-mail.',
  poweredBy: 'CFDI 4.0 electronic invoice',
};

export const LOCALES = ['es', 'en'] as const;
export type Locale = (typeof LOCALES)[number];
export const MESSAGES: Record<Locale, Messages> = { es, en };

export const isLocale = (value: string | undefined): value is Locale =>
  (LOCALES as readonly string[]).includes(value ?? '');

/** `en-US,en;q=0.9,es;q=0.8` → en: the highest-weighted language the portal has; Spanish otherwise. */
export function fromAcceptLanguage(header: string | null): Locale {
  const ranked = (header ?? '')
    .split(',')
    .map((part) => {
      const [tag, ...params] = part.trim().split(';');
      const q = params.find((p) => p.trim().startsWith('q='));
      return { lang: (tag ?? '').trim().slice(0, 2).toLowerCase(), q: q ? Number(q.trim().slice(2)) : 1 };
    })
    .filter((entry) => isLocale(entry.lang) && entry.q > 0)
    .sort((a, b) => b.q - a.q);
  return (ranked[0]?.lang as Locale | undefined) ?? 'es';
}

/** The language switch's choice. */
export const LOCALE_COOKIE = 'cfdi_portal_lang';
