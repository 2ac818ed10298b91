import type { DocumentRow } from '../documents';
import type { EmailLocale } from './recipients';

export interface MailAttachment {
  filename: string;
  content: Buffer;
  contentType: string;
  /** Set for an image the HTML shows inline (`cid:…`). */
  cid?: string;
}

export interface MailMessage {
  /** A deterministic Message-ID (`<eml_…@cfdi>`): a message sent twice after a crash can be recognised as one. */
  messageId: string;
  to: string[];
  subject: string;
  text: string;
  html: string;
  attachments: MailAttachment[];
}

export interface DocumentEmailInput {
  deliveryId: string;
  to: string[];
  locale: EmailLocale;
  document: Pick<
    DocumentRow,
    'type' | 'kind' | 'status' | 'serie' | 'folio' | 'uuid' | 'total' | 'monto' | 'currency' | 'stamped_xml'
  >;
  merchant: { legalName: string; rfc: string };
  /** The merchant's logo (PNG) for the message's header, or null to show its name alone. */
  logo: Buffer | null;
  pdf: Buffer;
  /** The SAT's cancellation acuse, attached to the message of a cancelled document. */
  acuse: Buffer | null;
}

const TEXTS = {
  es: {
    invoice: 'factura',
    credit_note: 'nota de crédito',
    payment: 'complemento de pago',
    nomina: 'recibo de nómina',
    retention: 'constancia de retenciones',
    traslado: 'CFDI de traslado',
    subject: (what: string, folio: string, merchant: string) => `${capital(what)} ${folio} de ${merchant}`,
    cancelledSubject: (subject: string) => `Cancelación: ${subject}`,
    intro: (merchant: string, rfc: string, what: string, folio: string) =>
      `${merchant} (RFC ${rfc}) le envía su ${what} ${folio}.`,
    cancelledIntro: (merchant: string, rfc: string, what: string, folio: string) =>
      `${merchant} (RFC ${rfc}) le informa la cancelación ante el SAT de su ${what} ${folio}. Se adjunta el acuse de cancelación.`,
    uuid: 'Folio fiscal (UUID)',
    total: 'Total',
    attached: 'Se adjuntan el CFDI en XML y su representación impresa en PDF.',
  },
  en: {
    invoice: 'invoice',
    credit_note: 'credit note',
    payment: 'payment receipt',
    nomina: 'payroll receipt',
    retention: 'withholding certificate',
    traslado: 'transfer CFDI (traslado)',
    subject: (what: string, folio: string, merchant: string) => `${capital(what)} ${folio} from ${merchant}`,
    cancelledSubject: (subject: string) => `Cancelled: ${subject}`,
    intro: (merchant: string, rfc: string, what: string, folio: string) =>
      `${merchant} (RFC ${rfc}) sends you ${what} ${folio}.`,
    cancelledIntro: (merchant: string, rfc: string, what: string, folio: string) =>
      `${merchant} (RFC ${rfc}) cancelled ${what} ${folio} with the SAT. The SAT's cancellation acknowledgment is attached.`,
    uuid: 'Fiscal folio (UUID)',
    total: 'Total',
    attached: 'The CFDI (XML) and its printed version (PDF) are attached.',
  },
} as const;

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const escapeHtml = (text: string) =>
  text.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

/**
 * The message of a document: subject and body naming the merchant, folio, UUID and total in the recipient's
 * language; the stamped XML (its bytes as stored) and the PDF attached, plus the acuse once cancelled.
 */
export function documentEmail(input: DocumentEmailInput): MailMessage {
  const { document, merchant, locale } = input;
  const texts = TEXTS[locale];
  const what =
    document.type === 'invoice' && document.kind === 'credit_note' ? texts.credit_note : texts[document.type];
  const folio = `${document.serie}-${document.folio}`;
  const cancelled = document.status === 'cancelled';
  const amount = Number(document.type === 'payment' ? (document.monto ?? document.total) : document.total);
  const total = new Intl.NumberFormat(locale === 'es' ? 'es-MX' : 'en-US', {
    style: 'currency',
    currency: document.currency,
  }).format(amount);
  const subject = texts.subject(what, folio, merchant.legalName);
  const intro = (cancelled ? texts.cancelledIntro : texts.intro)(
    merchant.legalName,
    merchant.rfc,
    what,
    folio,
  );
  const lines = [
    intro,
    '',
    `${texts.uuid}: ${document.uuid}`,
    `${texts.total}: ${total} ${document.currency}`,
    '',
    texts.attached,
  ];
  const logo = input.logo
    ? `<p><img src="cid:logo@cfdi" alt="${escapeHtml(merchant.legalName)}" style="max-height:60px"></p>`
    : '';
  const html =
    `<!doctype html><html lang="${locale}"><body style="font-family:sans-serif">${logo}` +
    lines.map((line) => (line ? `<p>${escapeHtml(line)}</p>` : '')).join('') +
    '</body></html>';
  const name = document.uuid!;
  return {
    messageId: `<${input.deliveryId}@cfdi>`,
    to: input.to,
    subject: cancelled ? texts.cancelledSubject(subject) : subject,
    text: `${lines.join('\n')}\n`,
    html,
    attachments: [
      {
        filename: `${name}.xml`,
        content: Buffer.from(document.stamped_xml!, 'utf8'),
        contentType: 'application/xml',
      },
      { filename: `${name}.pdf`, content: input.pdf, contentType: 'application/pdf' },
      ...(input.acuse
        ? [
            {
              filename: `${name}-acuse-cancelacion.xml`,
              content: input.acuse,
              contentType: 'application/xml',
            },
          ]
        : []),
      ...(input.logo
        ? [{ filename: 'logo.png', content: input.logo, contentType: 'image/png', cid: 'logo@cfdi' }]
        : []),
    ],
  };
}
