import { htmlLang, type Locale } from '../i18n/locale';
import { CONSENT_TEXTS } from './texts';

/** The sign-in and consent pages: plain server-rendered HTML, every value escaped, no script, in es or en. */
const escape = (value: string) =>
  value.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!,
  );

function page(locale: Locale, title: string, body: string): string {
  return `<!doctype html>
<html lang="${htmlLang(locale)}"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password]{width:100%;padding:.5rem}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}.muted{color:#666;font-size:.9rem}</style>
</head><body>${body}</body></html>`;
}

export function errorPage(locale: Locale, message: string): string {
  const t = CONSENT_TEXTS[locale];
  return page(
    locale,
    t.errorTitle,
    `<h1>${escape(t.errorTitle)}</h1><p class="error">${escape(message)}</p>
<p class="muted">${escape(t.errorHint)}</p>`,
  );
}

export function loginPage(
  locale: Locale,
  input: { handle: string; clientName: string; livemode: boolean; error?: string; email?: string },
): string {
  const t = CONSENT_TEXTS[locale];
  return page(
    locale,
    t.signInTitle,
    `<h1>${escape(t.connect(input.clientName))}</h1>
<p>${escape(t.signInIntro(input.clientName, t.mode(input.livemode)))}</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/login">
<input type="hidden" name="handle" value="${escape(input.handle)}">
<label for="email">${escape(t.email)}</label><input id="email" type="email" name="email" autocomplete="username" required value="${escape(input.email ?? '')}">
<label for="password">${escape(t.password)}</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">${escape(t.signIn)}</button>
</form>`,
  );
}

export function consentPage(
  locale: Locale,
  input: {
    handle: string;
    clientName: string;
    livemode: boolean;
    /** The requested scope allows the write tools (else read only: the page says so). */
    canWrite: boolean;
    email: string;
    allowAll: boolean;
    merchants: { id: string; rfc: string; legalName: string }[];
    error?: string;
  },
): string {
  const t = CONSENT_TEXTS[locale];
  const merchants = input.merchants
    .map(
      (m) =>
        `<label><input type="checkbox" name="merchant" value="${escape(m.id)}"> ${escape(m.rfc)} — ${escape(m.legalName)}</label>`,
    )
    .join('\n');
  return page(
    locale,
    t.consentTitle,
    `<h1>${escape(t.authorize(input.clientName))}</h1>
<p>${escape(t.consentIntro(input.email, t.mode(input.livemode), input.canWrite))}</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/consent">
<input type="hidden" name="handle" value="${escape(input.handle)}">
<fieldset><legend>${escape(t.merchants)}</legend>
${input.allowAll ? `<label><input type="checkbox" name="all_merchants" value="1"> ${escape(t.allMerchants)}</label>` : ''}
${merchants || `<p class="muted">${escape(t.noMerchants)}</p>`}
</fieldset>
<button type="submit" name="decision" value="approve">${escape(t.approve)}</button>
<button type="submit" name="decision" value="deny">${escape(t.deny)}</button>
</form>`,
  );
}
