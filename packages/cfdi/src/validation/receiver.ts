import type { CatalogLookup } from './catalog-lookup';
import { checkText, isString, type Issues } from './issues';
import {
  hasCorporateSuffix,
  isGenericRfc,
  isRfc,
  personType,
  RFC_EXTRANJERO,
  RFC_PUBLICO_GENERAL,
} from './rfc';

export interface ReceiverRequest {
  rfc?: unknown;
  name?: unknown;
  zip?: unknown;
  regimenFiscal?: unknown;
  residenciaFiscal?: unknown;
  numRegIdTrib?: unknown;
}

export interface IssuerContext {
  rfc: string;
  regimenFiscal: string;
  /** LugarExpedicion. */
  zip: string;
  /** Registered in the border-region stimulus: only then IVA 8 % (absent = not registered). */
  borderRegionStimulus?: boolean;
}

const PERSON = { fisica: 'persona física (13-character RFC)', moral: 'persona moral (12-character RFC)' };

/**
 * A Receptor@Nombre as the SAT registers it (CFDI40145): in capitals exactly as on the Constancia de Situación
 * Fiscal, without the corporate-regime suffix. Shared by invoices, credit notes and payroll (the employee).
 */
export function checkRegisteredName(issues: Issues, path: string, name: string, whose: string): void {
  if (name !== name.toUpperCase())
    issues.add(
      path,
      `must be written in capital letters exactly as in the ${whose}'s Constancia de Situación Fiscal (CFDI40145)`,
    );
  if (hasCorporateSuffix(name))
    issues.add(
      path,
      'must not include the corporate-regime suffix (SA DE CV, S DE RL, SC, AC...): the SAT registers the name without it (CFDI40145)',
    );
}

/**
 * ResidenciaFiscal and NumRegIdTrib (CFDI40150–40156): only for the foreign generic RFC XEXX010101000; the country a
 * c_Pais key other than MEX; a tax id needs its country and must match the country's c_Pais pattern (USA, CAN: 9
 * digits).
 */
function checkForeignIdentity(
  issues: Issues,
  r: ReceiverRequest,
  rfc: string | undefined,
  catalogs: CatalogLookup,
): void {
  if (r.residenciaFiscal === undefined && r.numRegIdTrib === undefined) return;
  if (rfc && rfc !== RFC_EXTRANJERO) {
    const field = r.residenciaFiscal !== undefined ? 'residenciaFiscal' : 'numRegIdTrib';
    issues.add(
      `/receiver/${field}`,
      `is only for a foreign receiver (RFC ${RFC_EXTRANJERO}); a Mexican RFC has no ${field} (CFDI40151/CFDI40154)`,
    );
    return;
  }
  const pais = isString(r.residenciaFiscal) ? catalogs.pais(r.residenciaFiscal) : undefined;
  if (r.residenciaFiscal === undefined)
    issues.add(
      '/receiver/residenciaFiscal',
      'is required with numRegIdTrib: the country that issued it (CFDI40153)',
    );
  else if (r.residenciaFiscal === 'MEX')
    issues.add(
      '/receiver/residenciaFiscal',
      'must not be MEX: it is the country of a foreign receiver (CFDI40152)',
    );
  else if (!pais)
    issues.add(
      '/receiver/residenciaFiscal',
      `${String(r.residenciaFiscal)} is not a c_Pais key (ISO 3166 alpha-3, e.g. USA) (CFDI40152)`,
    );
  if (r.numRegIdTrib === undefined) return;
  checkText(issues, '/receiver/numRegIdTrib', r.numRegIdTrib, 40, true);
  if (pais?.patronIdentidadTributaria && isString(r.numRegIdTrib)) {
    if (!new RegExp(`^(?:${pais.patronIdentidadTributaria})$`).test(r.numRegIdTrib))
      issues.add(
        '/receiver/numRegIdTrib',
        `does not match the tax id format of ${String(r.residenciaFiscal)} (${pais.patronIdentidadTributaria}) (CFDI40156)`,
      );
  }
}

/** c_UsoCFDI keys that belong to one document type (Anexo 20 filling guide): never on an I or E document. */
const RESERVED_USOS: Record<string, string> = {
  CP01: 'payment complements (Pagos, TipoDeComprobante P)',
  CN01: 'payroll (Nómina, TipoDeComprobante N)',
};

/**
 * Receptor rules CFDI40143–40161 that can be checked without the SAT's taxpayer list. Without an `issuer` (a saved
 * customer, checked again against the issuer when a document uses it) the rules that compare with the issuer are left
 * out, and so is a missing usoCfdi (`usoCfdiRequired: false`: a customer's default is optional).
 */
export function checkReceiver(
  issues: Issues,
  receiver: unknown,
  usoCfdi: unknown,
  issuer: IssuerContext | undefined,
  catalogs: CatalogLookup,
  usoCfdiRequired = true,
): ReceiverRequest | undefined {
  if (typeof receiver !== 'object' || receiver === null) {
    issues.add('/receiver', 'is required: {rfc, name, zip, regimenFiscal}');
    return undefined;
  }
  const r = receiver as ReceiverRequest;
  const rfcOk = isString(r.rfc) && isRfc(r.rfc);
  if (r.rfc === undefined) issues.add('/receiver/rfc', 'is required');
  else if (!rfcOk) {
    issues.add(
      '/receiver/rfc',
      'is not a valid RFC: 3 letters (persona moral) or 4 (persona física), then the date YYMMDD and a 3-character homoclave, in capitals (Ñ and & allowed), e.g. EKU9003173C9',
    );
  }
  checkText(issues, '/receiver/name', r.name, 300, true);
  if (isString(r.name)) {
    checkRegisteredName(issues, '/receiver/name', r.name, 'receiver');
    if (r.name.trim() === 'PUBLICO EN GENERAL' && r.rfc !== RFC_PUBLICO_GENERAL)
      issues.add('/receiver/rfc', 'PUBLICO EN GENERAL requires the generic RFC XAXX010101000 (CFDI40146)');
  }
  if (!isString(r.zip) || !/^[0-9]{5}$/.test(r.zip))
    issues.add('/receiver/zip', "must be the 5-digit postal code of the receiver's fiscal domicile");
  const rfc = rfcOk ? (r.rfc as string) : undefined;
  if (issuer && rfc && isGenericRfc(rfc) && r.zip !== issuer.zip) {
    issues.add(
      '/receiver/zip',
      `with the generic RFC ${rfc} the receiver zip must equal the issuer's place of issue ${issuer.zip} (CFDI40149)`,
    );
  }
  if (issuer && rfc && rfc === issuer.rfc) issues.add('/receiver/rfc', 'must differ from the issuer RFC');
  checkForeignIdentity(issues, r, rfc, catalogs);

  const regimenKey = isString(r.regimenFiscal) ? r.regimenFiscal : undefined;
  const regimen = regimenKey ? catalogs.regimen(regimenKey) : undefined;
  if (!regimenKey || !/^[0-9]{3}$/.test(regimenKey))
    issues.add('/receiver/regimenFiscal', 'must be a 3-digit c_RegimenFiscal key');
  else if (!regimen)
    issues.add('/receiver/regimenFiscal', `${regimenKey} is not a c_RegimenFiscal key (CFDI40157)`);
  else if (rfc && isGenericRfc(rfc)) {
    if (regimenKey !== '616')
      issues.add(
        '/receiver/regimenFiscal',
        `the generic RFC ${rfc} requires régimen 616 Sin obligaciones fiscales (CFDI40159)`,
      );
  } else if (rfc && !regimen[personType(rfc)]) {
    issues.add(
      '/receiver/regimenFiscal',
      `régimen ${regimenKey} does not apply to a ${PERSON[personType(rfc)]} (CFDI40158)`,
    );
  }

  if (usoCfdi === undefined) {
    if (usoCfdiRequired) issues.add('/usoCfdi', 'is required');
  } else if (!isString(usoCfdi) || !catalogs.usoCfdi(usoCfdi))
    issues.add('/usoCfdi', `${String(usoCfdi)} is not a c_UsoCFDI key (CFDI40160)`);
  else if (RESERVED_USOS[usoCfdi])
    issues.add(
      '/usoCfdi',
      `${usoCfdi} is for ${RESERVED_USOS[usoCfdi]} only, not for an income or credit note CFDI; use e.g. G03 (gastos en general) or G01 (adquisición de mercancías)`,
    );
  else {
    const uso = catalogs.usoCfdi(usoCfdi)!;
    if (rfc && !uso[personType(rfc)])
      issues.add('/usoCfdi', `uso ${usoCfdi} is not allowed for a ${PERSON[personType(rfc)]} (CFDI40161)`);
    if (regimen && regimenKey && !uso.regimenesReceptor.includes(regimenKey)) {
      issues.add(
        '/usoCfdi',
        `uso ${usoCfdi} is not allowed with receiver régimen ${regimenKey}; allowed régimenes: ${uso.regimenesReceptor.join(', ')} (CFDI40161)`,
      );
    }
  }
  return r;
}
