import { Type } from '@sinclair/typebox';

export const BalanceSchema = Type.Object({
  object: Type.Literal('balance'),
  livemode: Type.Boolean(),
  balanceCentavos: Type.Integer(),
  currency: Type.Literal('MXN'),
  pricePerTimbreCentavos: Type.Integer(),
  timbresRemaining: Type.Integer(),
});
