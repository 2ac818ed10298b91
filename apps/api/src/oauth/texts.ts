import type { Locale } from '../i18n/locale';

/** Every text of the sign-in and consent pages, in Spanish and English (chosen by Accept-Language). */
export interface ConsentTexts {
  mode(livemode: boolean): string;
  errorTitle: string;
  errorHint: string;
  unknownClient: string;
  unregisteredRedirect: string;
  expired: string;
  signInTitle: string;
  connect(client: string): string;
  signInIntro(client: string, mode: string): string;
  email: string;
  password: string;
  signIn: string;
  consentTitle: string;
  authorize(client: string): string;
  consentIntro(email: string, mode: string, canWrite: boolean): string;
  merchants: string;
  allMerchants: string;
  noMerchants: string;
  approve: string;
  deny: string;
  chooseMerchant: string;
  noAccount: string;
  wrongMode(livemode: boolean): string;
  throttled(seconds: number): string;
  locked(minutes: number): string;
  wrongPassword: string;
}

// Client names, modes and e-mails reach these functions raw: the pages escape what they return.
export const CONSENT_TEXTS: Readonly<Record<Locale, ConsentTexts>> = {
  es: {
    mode: (livemode) => (livemode ? 'live (CFDI reales)' : 'test (sandbox, sin valor fiscal)'),
    errorTitle: 'No se pudo autorizar',
    errorHint: 'Vuelve a la aplicación y conéctala de nuevo.',
    unknownClient: 'Aplicación desconocida (client_id).',
    unregisteredRedirect: 'La dirección de regreso (redirect_uri) no está registrada para esta aplicación.',
    expired: 'La solicitud expiró o no es válida. Vuelve a empezar desde la aplicación.',
    signInTitle: 'Iniciar sesión',
    connect: (client) => `Conectar ${client}`,
    signInIntro: (client, mode) =>
      `La aplicación ${client} pide acceso a tu cuenta en modo ${mode}. Inicia sesión con tu usuario de la consola.`,
    email: 'Correo',
    password: 'Contraseña',
    signIn: 'Iniciar sesión',
    consentTitle: 'Autorizar acceso',
    authorize: (client) => `Autorizar a ${client}`,
    consentIntro: (email, mode, canWrite) =>
      canWrite
        ? `Sesión iniciada como ${email}. La aplicación podrá, en modo ${mode}, emitir, consultar, registrar pagos y cancelar CFDI de los emisores que elijas, con cargo a tu saldo.`
        : `Sesión iniciada como ${email}. La aplicación pide solo lectura: podrá, en modo ${mode}, consultar los CFDI de los emisores que elijas, los catálogos y el saldo, sin emitir, cancelar ni cobrar nada.`,
    merchants: 'Emisores',
    allMerchants: 'Todos, también los que se agreguen después',
    noMerchants: 'No hay emisores en este modo.',
    approve: 'Autorizar',
    deny: 'Rechazar',
    chooseMerchant: 'Elige al menos un emisor de la lista.',
    noAccount: 'Este usuario no pertenece a ninguna cuenta.',
    wrongMode: (livemode) => `Este usuario no puede actuar en modo ${livemode ? 'live' : 'test'}.`,
    throttled: (seconds) => `Demasiados intentos. Espera ${seconds} segundos.`,
    locked: (minutes) => `Demasiados intentos fallidos: el usuario está bloqueado ${minutes} minutos.`,
    wrongPassword: 'Correo o contraseña incorrectos.',
  },
  en: {
    mode: (livemode) => (livemode ? 'live (real CFDIs)' : 'test (sandbox, no fiscal value)'),
    errorTitle: 'Authorization failed',
    errorHint: 'Go back to the application and connect it again.',
    unknownClient: 'Unknown application (client_id).',
    unregisteredRedirect: 'The return address (redirect_uri) is not registered for this application.',
    expired: 'The request expired or is not valid. Start again from the application.',
    signInTitle: 'Sign in',
    connect: (client) => `Connect ${client}`,
    signInIntro: (client, mode) =>
      `The application ${client} asks for access to your account in ${mode} mode. Sign in with your console user.`,
    email: 'E-mail',
    password: 'Password',
    signIn: 'Sign in',
    consentTitle: 'Authorize access',
    authorize: (client) => `Authorize ${client}`,
    consentIntro: (email, mode, canWrite) =>
      canWrite
        ? `Signed in as ${email}. In ${mode} mode, the application will be able to issue, read, record payments for and cancel CFDIs of the issuers you choose, charged to your balance.`
        : `Signed in as ${email}. The application asks for read access only: in ${mode} mode it will be able to read the CFDIs of the issuers you choose, the catalogs and the balance, without issuing, cancelling or charging anything.`,
    merchants: 'Issuers',
    allMerchants: 'All of them, including those added later',
    noMerchants: 'There are no issuers in this mode.',
    approve: 'Authorize',
    deny: 'Deny',
    chooseMerchant: 'Choose at least one issuer from the list.',
    noAccount: 'This user belongs to no account.',
    wrongMode: (livemode) => `This user cannot act in ${livemode ? 'live' : 'test'} mode.`,
    throttled: (seconds) => `Too many attempts. Wait ${seconds} seconds.`,
    locked: (minutes) => `Too many failed attempts: the user is locked for ${minutes} minutes.`,
    wrongPassword: 'Wrong e-mail or password.',
  },
};
