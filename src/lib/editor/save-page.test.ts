// The words a stale save answers with, for every kind of change another tab or editor made: each
// a sentence (it once read "this page was had its draft discarded"); and the live preview's
// answer in blocks, which must add up to the preview a page without JavaScript gets.
import { describe, expect, test } from 'bun:test';
import type { EditorSession } from '../editors/accounts';
import {
  CHANGE_WORDS,
  changeWords,
  conflictMessage,
  livePreviewOf,
  previewHtmlOf,
} from './save-page';

describe('a stale save’s message', () => {
  test('reads as a sentence for every change kind', () => {
    const predicates: Record<keyof typeof CHANGE_WORDS, string> = {
      saved: 'was saved again',
      published: 'was published',
      unpublished: 'was unpublished',
      discarded: 'had its draft discarded',
      renamed: 'was renamed',
      restored: 'was restored from its history',
    };
    for (const [change, words] of Object.entries(CHANGE_WORDS)) {
      const message = conflictMessage(words, ', by other@example.com');
      expect(message).toStartWith(
        `Not saved: this page ${predicates[change as keyof typeof CHANGE_WORDS]} since you opened it, by other@example.com.`,
      );
      expect(message).not.toMatch(/\bwas (had|was)\b/);
    }
  });
});

describe('who is named for a rename', () => {
  const me: EditorSession = {
    editor: { id: 1, email: 'me@example.com', role: 'editor' },
    expiresAt: new Date(Date.now() + 3_600_000),
    confirmedAt: null,
  };
  test('the renamer, when the rename was the last change', () => {
    const [what, who] = changeWords(
      { slug: 'new-name', lastChange: 'renamed', updatedBy: 'ann@example.com' },
      true,
      me,
    );
    expect(conflictMessage(what, who)).toStartWith(
      'Not saved: this page was renamed to “new-name” since you opened it, by ann@example.com.',
    );
  });

  test('nobody, when a draft was written since (hostile pass: “by you in another tab” after another’s rename)', () => {
    const [what, who] = changeWords(
      { slug: 'new-name', lastChange: 'saved', updatedBy: 'me@example.com' },
      true,
      me,
    );
    expect(conflictMessage(what, who)).toStartWith(
      'Not saved: this page was renamed to “new-name” since you opened it. ',
    );
  });
});

describe('the live preview in blocks', () => {
  const body = [
    '# Notes',
    'A [link](/about) to another page, and one [home](/).',
    '```ts\nconst a = 1;\n```',
    '- one\n- two',
    '## Notes',
    'The end.',
  ].join('\n\n');
  const joined = (preview: { ids: string[]; html: Record<string, string> }, kept = {}) =>
    preview.ids.map((id) => ({ ...kept, ...preview.html })[id]).join('');

  test('adds up to the whole preview, and sends only the blocks the pane lacks', async () => {
    const first = await livePreviewOf(body, []);
    expect(first.ids).toHaveLength(6);
    expect(joined(first)).toBe(await previewHtmlOf(body));
    expect(joined(first)).toContain('href="/preview/about"');

    // Nothing changed: ids only.
    expect(await livePreviewOf(body, first.ids)).toEqual({ ids: first.ids, html: {} });

    // One paragraph edited: that block alone comes back.
    const edited = body.replace('The end.', 'The very end.');
    const second = await livePreviewOf(edited, first.ids);
    expect(Object.keys(second.html)).toHaveLength(1);
    expect(Object.values(second.html)[0]).toBe('<p>The very end.</p>\n');
    expect(joined(second, first.html)).toBe(await previewHtmlOf(edited));

    // A heading added above renumbers the one below: it takes the id the pane already shows
    // (notes-1), and the one below comes back as notes-2.
    const heading = body.replace('A [link]', '## Notes\n\nA [link]');
    const third = await livePreviewOf(heading, first.ids);
    expect(Object.values(third.html)).toEqual(['<h2 id="notes-2">Notes</h2>\n']);
    expect(joined(third, first.html)).toBe(await previewHtmlOf(heading));
  });
});
