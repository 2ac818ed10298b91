import type { CancelService } from '../cancellation/cancel-service';
import type { Fault } from '../faults/fault-registry';
import type { RegistrationStore } from '../storage/registrations';
import type { StampService } from '../stamping/stamp-service';

export interface Credentials {
  username: string;
  password: string;
}

/** What every SOAP operation handler needs; built once per sandbox app. */
export interface OperationContext {
  stampService: StampService;
  cancelService: CancelService;
  registrations: RegistrationStore;
  now: () => Date;
  noCertificadoSat: string;
  /** When unset, any username/password is accepted (the sandbox is for tests). */
  credentials?: Credentials;
  resellerCredentials?: Credentials;
}

/** A handler answers with a SOAP body; `fault` carries the armed answer-shaping fault, if any. */
export type OperationHandler = (
  ctx: OperationContext,
  params: Record<string, string>,
  fault: Fault | undefined,
) => Promise<string>;

export function authenticated(
  expected: Credentials | undefined,
  username: string | undefined,
  password: string | undefined,
): boolean {
  return !expected || (expected.username === username && expected.password === password);
}
