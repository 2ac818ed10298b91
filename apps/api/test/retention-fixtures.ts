/** A valid POST /v1/retentions body: interest (CveRetenc 16) paid to a Mexican receiver over 2025, ISR and IVA withheld. */
export function retentionBody(merchantId: string, overrides: Record<string, unknown> = {}) {
  return {
    merchantId,
    cveRetenc: '16',
    receiver: {
      nacionalidad: 'Nacional',
      rfc: 'URE180429TM6',
      name: 'UNIVERSIDAD ROBOTICA ESPAÑOLA',
      zip: '86991',
    },
    period: { mesIni: 1, mesFin: 12, ejercicio: 2025 },
    totals: { montoTotGrav: 50000, montoTotExent: 1234.5 },
    withholdings: [
      { baseRet: 50000, impuestoRet: '001', montoRet: 10000, tipoPagoRet: '01' },
      { impuestoRet: '002', montoRet: 5333.33, tipoPagoRet: '01' },
    ],
    ...overrides,
  };
}
