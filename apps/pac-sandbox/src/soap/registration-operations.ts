import { FINKOK_SERVICES } from '@cfdi/pac';
import { inspectCertificate } from '@cfdi/cfdi';
import { authenticated, type OperationHandler } from './context';
import { field, soapResponse } from './envelopes';

const NS = FINKOK_SERVICES.registration.namespace;

const result = (operation: 'add' | 'edit', success: boolean, message: string) =>
  soapResponse(NS, operation, field('message', message) + field('success', String(success)));

/** A certificate, when sent, must be a CSD of the RFC being registered. */
function certificateProblem(rfc: string, cer: string | undefined): string | undefined {
  if (!cer) return undefined;
  try {
    const info = inspectCertificate(Buffer.from(cer, 'base64'));
    if (info.kind !== 'csd') return 'El certificado no es de tipo CSD';
    if (info.rfc !== rfc) return `El certificado pertenece a ${info.rfc}`;
    return undefined;
  } catch {
    return 'cer no es un certificado X.509 en base64';
  }
}

export const addOperation: OperationHandler = async (ctx, p, fault) => {
  if (!authenticated(ctx.resellerCredentials ?? ctx.credentials, p.reseller_username, p.reseller_password))
    return result('add', false, 'Usuario y contraseña inválidos');
  if (fault?.kind === 'reject') return result('add', false, fault.params.message ?? 'rechazo simulado');
  const rfc = (p.taxpayer_id ?? '').trim().toUpperCase();
  if (!/^[A-ZÑ&]{3,4}\d{6}[A-Z0-9]{3}$/.test(rfc)) return result('add', false, 'RFC inválido');
  const problem = certificateProblem(rfc, p.cer);
  if (problem) return result('add', false, problem);
  const typeUser = p.type_user === 'P' ? 'P' : 'O';
  const { inserted } = await ctx.registrations.add(
    { rfc, typeUser, status: 'A', certificateDer: p.cer ? Buffer.from(p.cer, 'base64') : null },
    ctx.now(),
  );
  return inserted
    ? result('add', true, 'Account Created successfully')
    : result('add', false, 'Account Already exists');
};

export const editOperation: OperationHandler = async (ctx, p, fault) => {
  if (!authenticated(ctx.resellerCredentials ?? ctx.credentials, p.reseller_username, p.reseller_password))
    return result('edit', false, 'Usuario y contraseña inválidos');
  if (fault?.kind === 'reject') return result('edit', false, fault.params.message ?? 'rechazo simulado');
  const rfc = (p.taxpayer_id ?? '').trim().toUpperCase();
  if (p.status !== 'A' && p.status !== 'S') return result('edit', false, 'status debe ser A o S');
  const problem = certificateProblem(rfc, p.cer);
  if (problem) return result('edit', false, problem);
  const { updated } = await ctx.registrations.edit(
    rfc,
    p.status,
    p.cer ? Buffer.from(p.cer, 'base64') : null,
    ctx.now(),
  );
  return updated
    ? result('edit', true, 'Account Updated successfully')
    : result('edit', false, 'Account Not Found');
};

export const getOperation: OperationHandler = async (ctx, p) => {
  if (!authenticated(ctx.resellerCredentials ?? ctx.credentials, p.reseller_username, p.reseller_password)) {
    return soapResponse(NS, 'get', field('message', 'Usuario y contraseña inválidos'));
  }
  const rfc = (p.taxpayer_id ?? '').trim().toUpperCase();
  const r = await ctx.registrations.find(rfc);
  if (!r) return soapResponse(NS, 'get', field('message', 'Account Not Found') + '<s0:users></s0:users>');
  const user =
    '<s0:ResellerUser>' +
    field('status', r.status) +
    field('counter', '0') +
    field('taxpayer_id', r.rfc) +
    // On-demand accounts have no prepaid credit balance.
    field('credit', r.typeUser === 'O' ? '-1' : '0') +
    field('type_user', r.typeUser) +
    '</s0:ResellerUser>';
  return soapResponse(NS, 'get', field('message', '') + `<s0:users>${user}</s0:users>`);
};
