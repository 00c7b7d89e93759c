// The words a stale save answers with, for every kind of change another tab or editor made: each
// a sentence (it once read "this page was had its draft discarded").
import { describe, expect, test } from 'bun:test';
import { CHANGE_WORDS, conflictMessage } from './save-page';

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
