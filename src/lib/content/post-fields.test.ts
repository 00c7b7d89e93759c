import { expect, test } from 'bun:test';
import { parseTopicNames } from './post-fields';

test('topic names: trimmed, one per name whatever the case, each with a letter or a digit', () => {
  expect(parseTopicNames(' Bees ,bees, Garden  walks,, ')).toEqual({
    names: ['Bees', 'Garden walks'],
  });
  expect(parseTopicNames('שלום, 日本, 2026')).toEqual({ names: ['שלום', '日本', '2026'] });
  // Hostile pass of issue 27: each of these made a topic at /topic-N.
  for (const name of ['---', '...', '😀', '—'])
    expect(parseTopicNames(`Bees, ${name}`)).toEqual({
      error: `“${name}” is not a topic name: use at least one letter or digit.`,
    });
});
