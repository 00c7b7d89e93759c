// Differences of two texts as <del>/<ins> (jsdiff: docs/decisions/0016, 0031), shared by the
// history (server) and the conflict view in the editor (browser). Lines first — a paragraph is
// a line in Markdown as editors type it — then words only inside a line that changed, so two
// edited sentences are never interleaved word by word. Runs of unchanged lines fold into a
// <details> ("… 12 unchanged paragraphs …", opened without JavaScript), so a comparison opens
// at its first change, which carries an id to jump to.
import { type Change, diffArrays, diffWordsWithSpace } from 'diff';
import type { ReactNode } from 'react';

/** Unchanged lines shown either side of a change; longer runs fold. */
const CONTEXT = 1;
/** A line pair longer than this is shown removed and added whole (word diffs grow fast). */
const WORDS_MAX = 20_000;

/** Below this share of words in common, two lines are shown as one replaced by the other. */
const ALIKE = 0.5;

export function WordDiff({ before, after }: { before: string; after: string }) {
  if (before === after) return <span className="diff-same">{after}</span>;
  const whole = (
    <>
      <del>{before}</del>
      <ins>{after}</ins>
    </>
  );
  if (before.length + after.length > WORDS_MAX) return whole;
  const parts = diffWordsWithSpace(before, after);
  // Two different sentences marked word by word read as one garbled one ("Tab AB adds the
  // ferryopening…"): unless most of the words are shared, the whole line is replaced.
  const shared = parts
    .filter((part) => !part.added && !part.removed)
    .reduce((sum, part) => sum + part.value.trim().length, 0);
  if (shared < ALIKE * Math.max(before.trim().length, after.trim().length)) return whole;
  return (
    <>
      {parts.map((part: Change, index) =>
        part.added ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <ins key={index}>{part.value}</ins>
        ) : part.removed ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <del key={index}>{part.value}</del>
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the parts are a fixed sequence
          <span key={index}>{part.value}</span>
        ),
      )}
    </>
  );
}

/** How many paragraphs (non-blank lines) a run of lines holds, in words. */
function unchangedWords(lines: readonly string[]): string {
  const paragraphs = lines.filter((line) => line.trim() !== '').length;
  return paragraphs === 1 ? '1 unchanged paragraph' : `${paragraphs} unchanged paragraphs`;
}

/**
 * Two texts compared line by line, words within a changed line, unchanged runs folded
 * (`fold`). The first change carries `firstId` (the history's Compare links to it).
 */
export function ParagraphDiff({
  before,
  after,
  fold = true,
  firstId,
}: {
  before: string;
  after: string;
  fold?: boolean;
  firstId?: string;
}) {
  const parts = diffArrays(before.split('\n'), after.split('\n'));
  const out: ReactNode[] = [];
  let first = true;
  const mark = () => {
    const id = first ? firstId : undefined;
    first = false;
    return id;
  };
  const lines = (text: readonly string[]) => text.map((line) => `${line}\n`).join('');
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index];
    if (!part) continue;
    if (!part.added && !part.removed) {
      const value = part.value;
      const isFirst = index === 0;
      const isLast = index === parts.length - 1;
      const head = isFirst ? 0 : CONTEXT;
      const tail = isLast ? 0 : CONTEXT;
      const hidden = value.length - head - tail;
      if (!fold || hidden < 2 || value.slice(head, value.length - tail).every((l) => !l.trim())) {
        out.push(<span key={`s${index}`}>{lines(value)}</span>);
        continue;
      }
      if (head > 0) out.push(<span key={`h${index}`}>{lines(value.slice(0, head))}</span>);
      out.push(
        <details key={`f${index}`} className="diff-fold">
          <summary>… {unchangedWords(value.slice(head, value.length - tail))} …</summary>
          <span>{lines(value.slice(head, value.length - tail))}</span>
        </details>,
      );
      if (tail > 0)
        out.push(<span key={`t${index}`}>{lines(value.slice(value.length - tail))}</span>);
      continue;
    }
    // A removal followed by an addition: the lines paired up are compared word by word.
    const next = parts[index + 1];
    if (part.removed && next?.added) {
      const removed = part.value;
      const added = next.value;
      const paired = Math.min(removed.length, added.length);
      const id = mark();
      out.push(
        <span key={`c${index}`} id={id}>
          {removed.slice(0, paired).map((line, at) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: the lines are a fixed sequence
            <span key={at}>
              <WordDiff before={line} after={added[at] ?? ''} />
              {'\n'}
            </span>
          ))}
          {removed.length > paired ? <del>{lines(removed.slice(paired))}</del> : null}
          {added.length > paired ? <ins>{lines(added.slice(paired))}</ins> : null}
        </span>,
      );
      index += 1;
      continue;
    }
    const id = mark();
    out.push(
      part.added ? (
        <ins key={`a${index}`} id={id}>
          {lines(part.value)}
        </ins>
      ) : (
        <del key={`r${index}`} id={id}>
          {lines(part.value)}
        </del>
      ),
    );
  }
  return <>{out}</>;
}

/** Title, summary and body side by side as one diff, each field labelled. */
export function FieldsDiff({
  before,
  after,
  beforeLabel,
  afterLabel,
  firstId,
}: {
  before: { title: string; summary: string; body: string };
  after: { title: string; summary: string; body: string };
  beforeLabel: ReactNode;
  afterLabel: ReactNode;
  /** The id the first change of the body carries (a link can open there). */
  firstId?: string;
}) {
  const changed = (['title', 'summary', 'body'] as const).filter(
    (field) => before[field] !== after[field],
  );
  return (
    <div className="diff">
      <p className="diff-legend">
        <del>{beforeLabel}</del> <ins>{afterLabel}</ins>
        {changed.length === 0 ? ' — the same text' : ''}
      </p>
      {(['title', 'summary', 'body'] as const).map((field) => (
        <section key={field} className="diff-field" aria-label={`${field} compared`}>
          <h3>
            {field[0]?.toUpperCase()}
            {field.slice(1)}
            {changed.includes(field) ? '' : ' (unchanged)'}
          </h3>
          {field === 'body' ? (
            // Folded, the body opens at its first change (an unchanged one is one fold): no
            // box to scroll inside. A <div>, since
            // a <details> may not sit in a <pre> (.diff-text keeps the line breaks).
            <div className="diff-text" style={{ maxHeight: 'none' }}>
              <ParagraphDiff before={before.body} after={after.body} firstId={firstId} />
            </div>
          ) : (
            <pre className="diff-text">
              <WordDiff before={before[field]} after={after[field]} />
            </pre>
          )}
        </section>
      ))}
    </div>
  );
}
