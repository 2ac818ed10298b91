export { buildSandboxApp, DEFAULT_RFC_PROV_CERTIF, type SandboxOptions } from './app';
export { loadSandboxConfig, type SandboxServerConfig } from './config';
export { dropDatabase } from './storage/database';
export {
  FAULT_KINDS,
  FAULT_OPERATIONS,
  type Fault,
  type FaultKind,
  type FaultOperation,
  type FaultParams,
} from './faults/fault-registry';
export {
  generateCertificate,
  taxpayerSubject,
  TEST_CA_ISSUER,
  SAT_ORGANIZATION,
  type CertificateSpec,
  type GeneratedCertificate,
} from './sat/forge-certificate';
export { mexicoLocal } from './time/mexico-time';
export { startPacSandbox, type RunningPacSandbox } from './testing';
