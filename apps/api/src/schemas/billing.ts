import { Type, type Static } from '@sinclair/typebox';
import { named } from '../openapi-components';

const PriceTierSchema = named(
  'PriceTier',
  Type.Object({
    fromTimbres: Type.Integer({
      description: 'The tier applies once this many timbres have been used in the month',
    }),
    pricePerTimbreCentavos: Type.Integer(),
  }),
);

export const BalanceSchema = named(
  'Balance',
  Type.Object({
    object: Type.Literal('balance'),
    livemode: Type.Boolean(),
    balanceCentavos: Type.Integer(),
    currency: Type.Literal('MXN'),
    pricePerTimbreCentavos: Type.Integer(),
    timbresRemaining: Type.Integer(),
    timbresThisMonth: Type.Integer({
      description: 'Extra field: timbres used this calendar month (Mexico City), which set the tier',
    }),
    currentTier: Type.Unsafe<Static<typeof PriceTierSchema>>({
      ...PriceTierSchema,
      description: 'Extra field: the monthly volume tier in force',
    }),
    nextTier: Type.Union([PriceTierSchema, Type.Null()], {
      description: 'Extra field: the next volume tier and its price; null at the top',
    }),
  }),
);
