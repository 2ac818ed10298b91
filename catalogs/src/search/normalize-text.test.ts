import { foldAccents, stem, words } from './normalize-text';

test('foldAccents drops diacritics and case', () => {
  expect(foldAccents('Camión PEÑA Ñandú')).toBe('camion pena nandu');
  expect(foldAccents('m²')).toBe('m2');
});

test('words splits on anything but letters and digits', () => {
  expect(words('Computadoras personales o laptop, Equipo de cómputo')).toEqual([
    'computadoras',
    'personales',
    'o',
    'laptop',
    'equipo',
    'de',
    'computo',
  ]);
  expect(words('Clavo-tornillo (3/4")')).toEqual(['clavo', 'tornillo', '3', '4']);
});

test('stem folds Spanish plural and gender endings but keeps short words whole', () => {
  for (const w of ['computadora', 'computadoras', 'computador', 'computadores'])
    expect(stem(w)).toBe('computador');
  expect(stem('tornillos')).toBe(stem('tornillo'));
  expect(stem('clases')).toBe(stem('clase'));
  expect(stem('paises')).toBe(stem('pais'));
  expect(stem('gas')).toBe('gas');
  expect(stem('mesa')).toBe('mesa');
  for (const [singular, plural] of [
    ['mes', 'meses'],
    ['flor', 'flores'],
    ['luz', 'luces'],
    ['lapiz', 'lapices'],
    ['nuez', 'nueces'],
    ['dulce', 'dulces'],
    ['red', 'redes'],
  ]) {
    expect([singular, stem(plural!)]).toEqual([singular, stem(singular!)]);
  }
});
