import { describe, expect, test } from 'bun:test';
import { inPreviewSlot, PREVIEWS_AT_ONCE, PREVIEWS_PER_EDITOR } from './preview-slots';

/** A preview that ends when told to. */
function held() {
  let end: () => void = () => undefined;
  const done = new Promise<string>((resolve) => {
    end = () => resolve('made');
  });
  return { done, end };
}

describe('preview slots', () => {
  test('an editor gets their slots, then a refusal at once; a slot comes back however it ends', async () => {
    const previews = Array.from({ length: PREVIEWS_PER_EDITOR }, held);
    const running = previews.map((preview) => inPreviewSlot(1, () => preview.done));
    expect(await inPreviewSlot(1, async () => 'made')).toBeNull();
    // Another editor is not held up by the first one's.
    expect(await inPreviewSlot(2, async () => 'made')).toBe('made');
    previews[0]?.end();
    expect(await running[0]).toBe('made');
    expect(await inPreviewSlot(1, async () => 'again')).toBe('again');
    // A preview that throws gives its slot back too.
    await expect(
      inPreviewSlot(1, async () => {
        throw new Error('render failed');
      }),
    ).rejects.toThrow('render failed');
    expect(await inPreviewSlot(1, async () => 'after a throw')).toBe('after a throw');
    for (const preview of previews) preview.end();
    await Promise.all(running);
  });

  test('the process makes at most so many at once, whoever asks', async () => {
    const previews = Array.from({ length: PREVIEWS_AT_ONCE }, held);
    const running = previews.map((preview, editor) =>
      inPreviewSlot(100 + editor, () => preview.done),
    );
    expect(await inPreviewSlot(999, async () => 'made')).toBeNull();
    for (const preview of previews) preview.end();
    await Promise.all(running);
    expect(await inPreviewSlot(999, async () => 'made')).toBe('made');
  });
});
