import { ValidationError, type FieldError } from '../errors';

/**
 * The largest amount (pesos) a document, a line or a payment may carry: ten trillion. The XSD allows 18 integer
 * digits, but every amount the service handles must stay exact as a JS number of centavos (2^53 ≈ 9.007e15
 * centavos), and no real invoice comes near. The API schemas bound each field by it; the product of a line and the
 * sum of a document, which a schema cannot express, are checked here before any tax computation runs.
 */
export const MAX_AMOUNT = 10_000_000_000_000;
/** The largest quantity of one concept (a trillion units: grams, kWh or litres included). */
export const MAX_QUANTITY = 1_000_000_000_000;

interface PricedLine {
  quantity: number | string;
  unitPrice: number | string;
}

/** 400 with the path of each line whose quantity × unitPrice, or of the document whose sum, is over MAX_AMOUNT. */
export function checkAmountMagnitudes(items: readonly PricedLine[], shipping?: { amount: number | string }): void {
  const errors: FieldError[] = [];
  let gross = Number(shipping?.amount ?? 0);
  items.forEach((item, i) => {
    const importe = Number(item.quantity) * Number(item.unitPrice);
    gross += importe;
    if (!(importe <= MAX_AMOUNT)) errors.push({ path: `/items/${i}/quantity`, message: `quantity × unitPrice must be at most ${MAX_AMOUNT.toLocaleString('en-US')}` });
  });
  if (!errors.length && !(gross <= MAX_AMOUNT)) errors.push({ path: '/items', message: `the document's amount must be at most ${MAX_AMOUNT.toLocaleString('en-US')}` });
  if (errors.length) throw new ValidationError(`The amounts are too large: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`, errors);
}
