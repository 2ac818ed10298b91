export * from './sessions';
export * from './login-throttle';
export * from './audit';
export * from './access';
export * from './document-search';
export * from './ledger-search';
export * from './document-downloads';
