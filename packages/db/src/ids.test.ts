import { idAtTime, newId } from './ids';

// A date filter is answered as an id range: every id made at or after a time sorts at or above idAtTime of it,
// and every id made before sorts below.
it('bounds the ids made at a time between idAtTime of it and of the next millisecond', () => {
  for (const time of [0, 1, 31, 32, Date.parse('2026-11-28T08:00:00.000Z'), 2 ** 45 - 1]) {
    for (let i = 0; i < 50; i += 1) {
      const id = newId('inv', time);
      expect(id >= idAtTime('inv', time)).toBe(true);
      expect(id < idAtTime('inv', time + 1)).toBe(true);
    }
  }
  expect(idAtTime('inv', Date.parse('2026-11-28T08:00:00.000Z'))).toMatch(/^inv_[0-9A-Z]{10}$/);
});
