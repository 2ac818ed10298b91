import { brandStyle } from './brand';

test('no brand colour leaves the defaults', () => {
  expect(brandStyle(null)).toBeUndefined();
});

test('a dark brand colour: white text on it, and it is the colour of links', () => {
  expect(brandStyle('#0d47a1')).toEqual({
    '--accent': '#0d47a1',
    '--accent-text': '#ffffff',
    '--accent-ink': '#0d47a1',
  });
});

test('a light brand colour: black text on it, and links stay the text colour (yellow does not read on white)', () => {
  expect(brandStyle('#ffeb3b')).toEqual({
    '--accent': '#ffeb3b',
    '--accent-text': '#000000',
    '--accent-ink': '#1a1a1a',
  });
});
