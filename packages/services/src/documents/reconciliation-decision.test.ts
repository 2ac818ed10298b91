import { ValidationError } from '../errors';
import { parseReconciliationDecision, RECONCILIATION_NOTE_MAX } from './reconciliation-decision';

const UUID = '0af3c8d1-1111-4222-8333-944455566677';
const base = { note: ' seen in the PAC portal ', resolvedBy: 'ana@example.mx' };

/** The field the refusal names, and its sentence. */
function refusal(input: Parameters<typeof parseReconciliationDecision>[0]) {
  try {
    parseReconciliationDecision(input);
  } catch (error) {
    if (error instanceof ValidationError)
      return { path: error.extra.errors?.[0]?.path, message: error.message };
    throw error;
  }
  throw new Error('accepted');
}

it('accepts a stamped decision with its UUID (upper-cased) and a not-stamped one without, trimming the note', () => {
  expect(parseReconciliationDecision({ ...base, decision: 'stamped', uuid: ` ${UUID} ` })).toEqual({
    stamped: true,
    uuid: UUID.toUpperCase(),
    withoutXml: false,
    note: 'seen in the PAC portal',
    resolvedBy: 'ana@example.mx',
  });
  expect(
    parseReconciliationDecision({ ...base, decision: 'stamped', uuid: UUID, withoutXml: true }),
  ).toMatchObject({ withoutXml: true });
  // An empty UUID field (the console's form always sends one) is no UUID.
  expect(parseReconciliationDecision({ ...base, decision: 'not_stamped', uuid: '' })).toEqual({
    stamped: false,
    withoutXml: false,
    note: 'seen in the PAC portal',
    resolvedBy: 'ana@example.mx',
  });
});

it('refuses, naming the field: no decision, a missing or malformed UUID, a UUID or withoutXml with not_stamped, no note, a long note, nobody deciding', () => {
  expect(refusal({ ...base, decision: null })).toMatchObject({ path: '/decision' });
  expect(refusal({ ...base, decision: 'maybe' })).toMatchObject({ path: '/decision' });
  expect(refusal({ ...base, decision: 'stamped' })).toEqual({
    path: '/uuid',
    message: 'A "stamped" decision needs the stamp\'s UUID.',
  });
  expect(refusal({ ...base, decision: 'stamped', uuid: 'abc' })).toMatchObject({ path: '/uuid' });
  expect(refusal({ ...base, decision: 'not_stamped', uuid: UUID })).toMatchObject({ path: '/uuid' });
  expect(refusal({ ...base, decision: 'not_stamped', withoutXml: true })).toMatchObject({
    path: '/withoutXml',
  });
  expect(refusal({ ...base, decision: 'not_stamped', note: '  ' })).toMatchObject({ path: '/note' });
  expect(refusal({ ...base, decision: 'not_stamped', note: undefined })).toMatchObject({ path: '/note' });
  expect(
    refusal({ ...base, decision: 'not_stamped', note: 'x'.repeat(RECONCILIATION_NOTE_MAX + 1) }),
  ).toMatchObject({ path: '/note' });
  expect(
    parseReconciliationDecision({
      ...base,
      decision: 'not_stamped',
      note: 'x'.repeat(RECONCILIATION_NOTE_MAX),
    }).note,
  ).toHaveLength(RECONCILIATION_NOTE_MAX);
  expect(refusal({ ...base, decision: 'not_stamped', resolvedBy: ' ' })).toMatchObject({
    path: '/resolvedBy',
  });
});
