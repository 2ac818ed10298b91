import type { CatalogLookup } from './catalog-lookup';
import { checkText, isString, type Issues } from './issues';
import { hasCorporateSuffix, isGenericRfc, isRfc, personType, RFC_PUBLICO_GENERAL } from './rfc';

export interface ReceiverRequest {
  rfc?: unknown;
  name?: unknown;
  zip?: unknown;
  regimenFiscal?: unknown;
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

/** Receptor rules CFDI40143–40161 that can be checked without the SAT's taxpayer list. */
/** c_UsoCFDI keys that belong to one document type (Anexo 20 filling guide): never on an I or E document. */
const RESERVED_USOS: Record<string, string> = { CP01: 'payment complements (Pagos, TipoDeComprobante P)', CN01: 'payroll (Nómina, TipoDeComprobante N)' };

export function checkReceiver(issues: Issues, receiver: unknown, usoCfdi: unknown, issuer: IssuerContext, catalogs: CatalogLookup): ReceiverRequest | undefined {
  if (typeof receiver !== 'object' || receiver === null) {
    issues.add('/receiver', 'is required: {rfc, name, zip, regimenFiscal}');
    return undefined;
  }
  const r = receiver as ReceiverRequest;
  const rfcOk = isString(r.rfc) && isRfc(r.rfc);
  if (r.rfc === undefined) issues.add('/receiver/rfc', 'is required');
  else if (!rfcOk) {
    issues.add('/receiver/rfc', 'is not a valid RFC: 3 letters (persona moral) or 4 (persona física), then the date YYMMDD and a 3-character homoclave, in capitals (Ñ and & allowed), e.g. EKU9003173C9');
  }
  checkText(issues, '/receiver/name', r.name, 300, true);
  if (isString(r.name)) {
    if (r.name !== r.name.toUpperCase()) issues.add('/receiver/name', 'must be written in capital letters exactly as in the receiver\'s Constancia de Situación Fiscal (CFDI40145)');
    if (hasCorporateSuffix(r.name)) issues.add('/receiver/name', 'must not include the corporate-regime suffix (SA DE CV, S DE RL, SC, AC...): the SAT registers the name without it (CFDI40145)');
    if (r.name.trim() === 'PUBLICO EN GENERAL' && r.rfc !== RFC_PUBLICO_GENERAL) issues.add('/receiver/rfc', 'PUBLICO EN GENERAL requires the generic RFC XAXX010101000 (CFDI40146)');
  }
  if (!isString(r.zip) || !/^[0-9]{5}$/.test(r.zip)) issues.add('/receiver/zip', 'must be the 5-digit postal code of the receiver\'s fiscal domicile');
  const rfc = rfcOk ? (r.rfc as string) : undefined;
  if (rfc && isGenericRfc(rfc) && r.zip !== issuer.zip) {
    issues.add('/receiver/zip', `with the generic RFC ${rfc} the receiver zip must equal the issuer's place of issue ${issuer.zip} (CFDI40149)`);
  }
  if (rfc && rfc === issuer.rfc) issues.add('/receiver/rfc', 'must differ from the issuer RFC');

  const regimenKey = isString(r.regimenFiscal) ? r.regimenFiscal : undefined;
  const regimen = regimenKey ? catalogs.regimen(regimenKey) : undefined;
  if (!regimenKey || !/^[0-9]{3}$/.test(regimenKey)) issues.add('/receiver/regimenFiscal', 'must be a 3-digit c_RegimenFiscal key');
  else if (!regimen) issues.add('/receiver/regimenFiscal', `${regimenKey} is not a c_RegimenFiscal key (CFDI40157)`);
  else if (rfc && isGenericRfc(rfc)) {
    if (regimenKey !== '616') issues.add('/receiver/regimenFiscal', `the generic RFC ${rfc} requires régimen 616 Sin obligaciones fiscales (CFDI40159)`);
  } else if (rfc && !regimen[personType(rfc)]) {
    issues.add('/receiver/regimenFiscal', `régimen ${regimenKey} does not apply to a ${PERSON[personType(rfc)]} (CFDI40158)`);
  }

  if (usoCfdi === undefined) issues.add('/usoCfdi', 'is required');
  else if (!isString(usoCfdi) || !catalogs.usoCfdi(usoCfdi)) issues.add('/usoCfdi', `${String(usoCfdi)} is not a c_UsoCFDI key (CFDI40160)`);
  else if (RESERVED_USOS[usoCfdi]) issues.add('/usoCfdi', `${usoCfdi} is for ${RESERVED_USOS[usoCfdi]} only, not for an income or credit note CFDI; use e.g. G03 (gastos en general) or G01 (adquisición de mercancías)`);
  else {
    const uso = catalogs.usoCfdi(usoCfdi)!;
    if (rfc && !uso[personType(rfc)]) issues.add('/usoCfdi', `uso ${usoCfdi} is not allowed for a ${PERSON[personType(rfc)]} (CFDI40161)`);
    if (regimen && regimenKey && !uso.regimenesReceptor.includes(regimenKey)) {
      issues.add('/usoCfdi', `uso ${usoCfdi} is not allowed with receiver régimen ${regimenKey}; allowed régimenes: ${uso.regimenesReceptor.join(', ')} (CFDI40161)`);
    }
  }
  return r;
}
