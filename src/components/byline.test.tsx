import { describe, expect, test } from 'bun:test';
import { renderToStaticMarkup } from 'react-dom/server';
import { Byline } from './byline';

const person = (name: string) => ({ name, path: `/${name.toLowerCase()}` });

describe('a byline', () => {
  test('reads as English: "By A", "By A and B", "By A, B and C"; nothing for none', () => {
    const text = (names: string[]) =>
      renderToStaticMarkup(<Byline authors={names.map(person)} />).replace(/<[^>]+>/g, '');
    expect(text([])).toBe('');
    expect(text(['Ada'])).toBe('By Ada');
    expect(text(['Ada', 'Grace'])).toBe('By Ada and Grace');
    expect(text(['Ada', 'Grace', 'Mary'])).toBe('By Ada, Grace and Mary');
    expect(renderToStaticMarkup(<Byline authors={[person('Ada')]} />)).toBe(
      '<span class="byline">By <a href="/ada">Ada</a></span>',
    );
  });
});
