import { MAX_AMOUNT, MAX_QUANTITY } from '@cfdi/cfdi';
import { ValidationError, type FieldError } from '../errors';

/** One definition of the limits for every document type, in the engine (payroll checks them there). */
export { MAX_AMOUNT, MAX_QUANTITY };

interface PricedLine {
  quantity: number | string;
  unitPrice: number | string;
}

/** 400 with the path of each line whose quantity × unitPrice, or of the document whose sum, is over MAX_AMOUNT. */
export function checkAmountMagnitudes(
  items: readonly PricedLine[],
  shipping?: { amount: number | string },
): void {
  const errors: FieldError[] = [];
  let gross = Number(shipping?.amount ?? 0);
  items.forEach((item, i) => {
    const importe = Number(item.quantity) * Number(item.unitPrice);
    gross += importe;
    if (!(importe <= MAX_AMOUNT))
      errors.push({
        path: `/items/${i}/quantity`,
        message: `quantity × unitPrice must be at most ${MAX_AMOUNT.toLocaleString('en-US')}`,
      });
  });
  if (!errors.length && !(gross <= MAX_AMOUNT))
    errors.push({
      path: '/items',
      message: `the document's amount must be at most ${MAX_AMOUNT.toLocaleString('en-US')}`,
    });
  if (errors.length)
    throw new ValidationError(
      `The amounts are too large: ${errors.map((e) => `${e.path} ${e.message}`).join('; ')}`,
      errors,
    );
}
