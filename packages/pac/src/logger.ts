/** The subset of pino's API the PAC client logs through. */
export interface PacLogger {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export const silentLogger: PacLogger = {
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
};
