/** The sign-in and consent pages: plain server-rendered HTML, every value escaped, no script. */
const escape = (value: string) =>
  value.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

function page(title: string, body: string): string {
  return `<!doctype html>
<html lang="es-MX"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escape(title)}</title>
<style>body{font-family:system-ui,sans-serif;max-width:28rem;margin:3rem auto;padding:0 1rem;color:#222}
label{display:block;margin:.75rem 0 .25rem}input[type=email],input[type=password]{width:100%;padding:.5rem}
button{margin-top:1rem;padding:.5rem 1rem}.error{color:#b00020}.muted{color:#666;font-size:.9rem}</style>
</head><body>${body}</body></html>`;
}

export function errorPage(message: string): string {
  return page('No se pudo autorizar', `<h1>No se pudo autorizar</h1><p class="error">${escape(message)}</p>
<p class="muted">Vuelve a la aplicación y conéctala de nuevo.</p>`);
}

export function loginPage(input: { handle: string; clientName: string; mode: string; error?: string; email?: string }): string {
  return page('Iniciar sesión', `<h1>Conectar ${escape(input.clientName)}</h1>
<p>La aplicación <strong>${escape(input.clientName)}</strong> pide acceso a tu cuenta en modo <strong>${escape(input.mode)}</strong>.
Inicia sesión con tu usuario de la consola.</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/login">
<input type="hidden" name="handle" value="${escape(input.handle)}">
<label for="email">Correo</label><input id="email" type="email" name="email" autocomplete="username" required value="${escape(input.email ?? '')}">
<label for="password">Contraseña</label><input id="password" type="password" name="password" autocomplete="current-password" required>
<button type="submit">Iniciar sesión</button>
</form>`);
}

export function consentPage(input: {
  handle: string; clientName: string; mode: string; email: string; allowAll: boolean;
  merchants: { id: string; rfc: string; legalName: string }[]; error?: string;
}): string {
  const merchants = input.merchants.map((m) => `<label><input type="checkbox" name="merchant" value="${escape(m.id)}"> ${escape(m.rfc)} — ${escape(m.legalName)}</label>`).join('\n');
  return page('Autorizar acceso', `<h1>Autorizar a ${escape(input.clientName)}</h1>
<p>Sesión iniciada como ${escape(input.email)}. La aplicación podrá, en modo <strong>${escape(input.mode)}</strong>, emitir, consultar,
registrar pagos y cancelar CFDI de los emisores que elijas, con cargo a tu saldo.</p>
${input.error ? `<p class="error" role="alert">${escape(input.error)}</p>` : ''}
<form method="post" action="/oauth/authorize/consent">
<input type="hidden" name="handle" value="${escape(input.handle)}">
<fieldset><legend>Emisores</legend>
${input.allowAll ? '<label><input type="checkbox" name="all_merchants" value="1"> Todos, también los que se agreguen después</label>' : ''}
${merchants || '<p class="muted">No hay emisores en este modo.</p>'}
</fieldset>
<button type="submit" name="decision" value="approve">Autorizar</button>
<button type="submit" name="decision" value="deny">Rechazar</button>
</form>`);
}
