/**
 * Incidence codes the sandbox answers, with Finkok's texts (pac.md §3.1, cfdi40.md §10.1).
 * 702 is the code for "RFC not registered with the PAC": the sandbox answers it when the issuer
 * RFC has no active registration (`add`).
 */
const INCIDENCE_MESSAGES: Record<string, string> = {
  '300': 'Usuario y contraseña inválidos',
  '301': 'XML mal formado',
  '302': 'Sello mal formado o inválido',
  '303': 'Sello no corresponde a emisor',
  '304': 'Certificado revocado o caduco',
  '305': 'La fecha de emisión no está dentro de la vigencia del CSD del Emisor',
  '306': 'El certificado no es de tipo CSD',
  '307': 'El CFDI contiene un timbre previo',
  '308': 'Certificado no expedido por el SAT',
  '401': 'Fecha y hora de generación fuera de rango',
  '603': 'El CFDI no contiene un timbre previo',
  '701': 'El RFC del emisor está suspendido',
  '702': 'No se encontró el RFC del emisor',
  '705': 'XML estructura inválida',
  '707': 'El XML ya contiene un nodo TimbreFiscalDigital',
  '708': 'No se pudo conectar al SAT',
  '712': 'El atributo noCertificado no coincide con el número de certificado',
};

/** Texts of the SAT matrix codes integrators most often trigger through the magic token. */
const SAT_MESSAGES: Record<string, string> = {
  CFDI40145:
    'El campo Nombre del receptor, debe pertenecer al nombre asociado al RFC registrado en el campo Rfc del Receptor.',
  CFDI40147:
    'El campo DomicilioFiscalReceptor del receptor, debe encontrarse en la lista de RFC inscritos no cancelados en el SAT.',
  CFDI40148: 'El campo RegimenFiscalReceptor, debe corresponder con el tipo de persona (física o moral).',
  CFDI40157: 'La clave del campo RegimenFiscalR debe corresponder con el tipo de persona (física o moral).',
  CFDI40161:
    'La clave del campo UsoCFDI debe corresponder con el tipo de persona (física o moral) y el régimen.',
};

export function incidenceMessage(code: string): string {
  return INCIDENCE_MESSAGES[code] ?? SAT_MESSAGES[code] ?? `Rechazo simulado por el sandbox (${code})`;
}

export interface Incidencia {
  code: string;
  message: string;
  extraInfo?: string;
}

export function incidence(code: string, extraInfo?: string): Incidencia {
  return { code, message: incidenceMessage(code), ...(extraInfo ? { extraInfo } : {}) };
}
