/** A valid POST /v1/nominas body for the EKU9003173C9 test employer (a company: no employer CURP). */
export function nominaBody(merchantId: string, overrides: Record<string, unknown> = {}) {
  return {
    merchantId,
    registroPatronal: 'B5510768108',
    employee: {
      rfc: 'XOJI740919U48',
      name: 'INGRID XODAR JIMENEZ',
      zip: '76028',
      curp: 'XOJI740919MQTDMN03',
      numSeguridadSocial: '04078873454',
      fechaInicioRelLaboral: '2015-01-16',
      tipoContrato: '01',
      sindicalizado: false,
      tipoJornada: '01',
      tipoRegimen: '02',
      numEmpleado: 'E-120',
      departamento: 'Ingeniería',
      puesto: 'Desarrolladora',
      riesgoPuesto: '1',
      periodicidadPago: '04',
      banco: '002',
      cuentaBancaria: '1234567890',
      salarioBaseCotApor: 490.22,
      salarioDiarioIntegrado: 515.43,
      claveEntFed: 'JAL',
    },
    period: {
      tipoNomina: 'O',
      fechaPago: '2026-11-15',
      fechaInicialPago: '2026-11-01',
      fechaFinalPago: '2026-11-15',
      numDiasPagados: 15,
    },
    percepciones: [
      { tipo: '001', clave: '001', concepto: 'Sueldo', importeGravado: 7000, importeExento: 0 },
      {
        tipo: '019',
        clave: '019',
        concepto: 'Horas extra',
        importeGravado: 250,
        importeExento: 250,
        horasExtra: [{ dias: 1, tipoHoras: '01', horasExtra: 2, importePagado: 500 }],
      },
    ],
    deducciones: [
      { tipo: '002', clave: '002', concepto: 'ISR', importe: 640.5 },
      { tipo: '001', clave: '001', concepto: 'IMSS', importe: 180.25 },
    ],
    otrosPagos: [
      { tipo: '002', clave: 'SUB', concepto: 'Subsidio para el empleo', importe: 12.34, subsidioCausado: 20 },
    ],
    ...overrides,
  };
}

/** The same body with `employee` fields replaced. */
export function withEmployee(
  merchantId: string,
  employee: Record<string, unknown>,
  overrides: Record<string, unknown> = {},
) {
  const body = nominaBody(merchantId, overrides);
  return { ...body, employee: { ...body.employee, ...employee } };
}
