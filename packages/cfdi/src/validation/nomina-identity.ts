import type { NominaRequest } from '../types';
import type { Issues } from './issues';
import { checkRegisteredName } from './receiver';
import { isGenericRfc } from './rfc';

/** A letter the SAT writes in an RFC and RENAPO replaces in a CURP (Ñ, and & of some names, become X). */
const replaceable = (c: string) => c === 'Ñ' || c === '&';
/** X stands for a replaced letter: inconvenient words (RFC's 4th, CURP's 2nd), a missing surname, Ñ. */
const fits = (a: string, b: string) => a === b || a === 'X' || b === 'X' || replaceable(a);

/**
 * Whether the CURP's first four letters can belong to the person of a 13-character RFC. Both take the surnames'
 * and the name's letters, but the SAT and RENAPO differ: each replaces a different letter of an inconvenient word
 * with X (RFC 4th, CURP 2nd), RENAPO writes X for Ñ and for a missing second surname where the RFC takes the name's
 * second letter, and the RFC of a one- or two-letter surname takes the mother's initial second.
 */
export function curpLettersFitRfc(rfc: string, curp: string): boolean {
  const r = [...rfc.slice(0, 4)];
  const c = [...curp.slice(0, 4)];
  if (r[0] !== c[0] && !replaceable(r[0]!)) return false;
  if ([1, 2, 3].every((i) => fits(r[i]!, c[i]!))) return true;
  if (c[2] === 'X') return fits(r[1]!, c[1]!) && fits(r[2]!, c[3]!); // one surname: PEJU ↔ PEXJ
  return fits(r[1]!, c[2]!) && fits(r[2]!, c[3]!); // short first surname: L1 M1 N1 N2 ↔ L1 V M1 N1
}

/** The CURP of the person whose RFC is `rfc`: same birth date (YYMMDD) and letters that fit (curpLettersFitRfc). */
function checkCurpOfRfc(issues: Issues, path: string, curp: string, rfc: string, whose: string): void {
  if (rfc.length !== 13 || isGenericRfc(rfc) || curp.length !== 18) return;
  if (curp.slice(4, 10) !== rfc.slice(4, 10)) {
    issues.add(
      path,
      `is not the CURP of ${whose} ${rfc}: its birth date ${curp.slice(4, 10)} (YYMMDD) differs from the RFC's ${rfc.slice(4, 10)}`,
    );
  } else if (!curpLettersFitRfc(rfc, curp)) {
    issues.add(
      path,
      `is not the CURP of ${whose} ${rfc}: its letters ${curp.slice(0, 4)} do not match the RFC's ${rfc.slice(0, 4)} (the same surnames and name)`,
    );
  }
}

/**
 * The receipt's people are who they say: the employee's name as on the tax certificate (the invoice receiver's
 * rule), the employee's own RFC (never a generic one, docs/decisions.md), and CURPs that belong to the RFCs.
 */
export function checkNominaIdentity(issues: Issues, req: NominaRequest, issuerRfc: string): void {
  const e = req.employee;
  checkRegisteredName(issues, '/employee/name', e.name, 'employee');
  if (isGenericRfc(e.rfc)) {
    issues.add(
      '/employee/rfc',
      `${e.rfc} is a generic RFC: a payroll receipt goes to the worker's own RFC, registered with the SAT. The receipt of a deceased worker (generic RFC XAXX010101000 plus the worker's CURP, per the SAT's payroll guide) is not issued by this service: with the generic RFC the receiver's zip must be the place of issue and its régimen 616 (CFDI40149, CFDI40159), which UsoCFDI CN01 (régimen 605 only) does not allow`,
    );
  }
  checkCurpOfRfc(issues, '/employee/curp', e.curp, e.rfc, 'the employee');
  if (req.employerCurp !== undefined)
    checkCurpOfRfc(issues, '/employerCurp', req.employerCurp, issuerRfc, 'the employer');
}
