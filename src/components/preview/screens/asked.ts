// Owns what a preview screen is asked: the address and query of /preview/[...slug], and who is
// asking. The route reads it once; the screens table (../screens.ts) picks a screen by it.
import type { EditorSession } from '../../../lib/editor/guard';

export type Asked = {
  /** The signed-in editor, or null (the sign-in form, or a shared draft). */
  editor: EditorSession | null;
  /** The address after /preview: [] for the dashboard, [slug] for a page. */
  segments: readonly string[];
  /** The page's slug when the address names one (not yet checked). */
  slug: string | undefined;
  /** The query as it came (kept on a redirect), and read. */
  query: string;
  params: URLSearchParams;
  /** A fixed notice key (?notice=…): screens turn it into words, never show it. */
  notice: string | null;
};

export type ScreenProps = { asked: Asked };
