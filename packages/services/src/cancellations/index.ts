export * from './cancellation-record';
export * from './request-cancellation';
export * from './cancellation-outcomes';
export * from './classify-pac-answers';
export * from './submit-cancellation';
