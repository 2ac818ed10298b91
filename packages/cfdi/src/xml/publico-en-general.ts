export const PUBLICO_EN_GENERAL = { rfc: 'XAXX010101000', name: 'PUBLICO EN GENERAL' } as const;
