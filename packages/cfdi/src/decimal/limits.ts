/**
 * The largest amount (pesos) a document, a line, a payment or a payroll amount may carry: ten trillion. The XSD
 * allows 18 integer digits, but every amount the service handles must stay exact as a JS number of centavos
 * (2^53 ≈ 9.007e15 centavos), and no real document comes near. The API schemas bound each field by it; sums and
 * products, which a schema cannot express, are checked by the services (invoices) and the engine (payroll).
 */
export const MAX_AMOUNT = 10_000_000_000_000;
/** The largest quantity of one concept (a trillion units: grams, kWh or litres included). */
export const MAX_QUANTITY = 1_000_000_000_000;
