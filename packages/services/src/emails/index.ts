export * from './addresses';
export * from './recipients';
export * from './deliveries';
export * from './message';
export * from './mailer';
export * from './send';
export * from './quota';
export * from './balance-alert-sending';
