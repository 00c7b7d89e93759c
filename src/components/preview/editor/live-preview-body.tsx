'use client';
// Owns the preview pane's body in the DOM. The server's first render (and a page without
// JavaScript) is the whole HTML; once the live preview answers in blocks, only the blocks
// whose ids changed are replaced: re-inserting 400 KB of HTML for one typed letter cost the
// browser more than the server's render (issue 25). React renders the element once and
// never touches its children again; the nodes each block made are kept to replace them.
import { useLayoutEffect, useRef, useState } from 'react';
import type { PreviewContent } from './use-live-preview';

type Placed = { ids: readonly string[]; nodes: ChildNode[][] };

/** The nodes `html` makes inside `container`, parsed as its children would be. */
function nodesOf(container: HTMLElement, html: string): ChildNode[] {
  const range = document.createRange();
  range.selectNodeContents(container);
  return [...range.createContextualFragment(html).childNodes];
}

export function LivePreviewBody({ content }: { content: PreviewContent }) {
  const element = useRef<HTMLDivElement>(null);
  // The HTML of the first render only: React leaves the element's children alone after that.
  const [first] = useState(() => (content.kind === 'html' ? content.html : ''));
  const placed = useRef<Placed | null>(null);
  const shownHtml = useRef(first);

  useLayoutEffect(() => {
    const container = element.current;
    if (!container) return;
    if (content.kind === 'html') {
      if (placed.current === null && content.html === shownHtml.current) return;
      placed.current = null;
      shownHtml.current = content.html;
      container.innerHTML = content.html;
      return;
    }
    const before = placed.current;
    if (!before) {
      // The first answer in blocks: every block's nodes, in order.
      const nodes = content.ids.map((id) => nodesOf(container, content.html.get(id) ?? ''));
      container.replaceChildren(...nodes.flat());
      placed.current = { ids: content.ids, nodes };
      return;
    }
    // Blocks the same at the start and at the end stay; those between are replaced.
    const { ids } = content;
    let head = 0;
    while (head < ids.length && head < before.ids.length && ids[head] === before.ids[head])
      head += 1;
    let tail = 0;
    while (
      tail < ids.length - head &&
      tail < before.ids.length - head &&
      ids[ids.length - 1 - tail] === before.ids[before.ids.length - 1 - tail]
    )
      tail += 1;
    const next = before.ids.length - tail;
    const anchor = before.nodes.slice(next).find((nodes) => nodes.length > 0)?.[0] ?? null;
    for (const node of before.nodes.slice(head, next).flat()) node.remove();
    const added = ids
      .slice(head, ids.length - tail)
      .map((id) => nodesOf(container, content.html.get(id) ?? ''));
    for (const node of added.flat()) container.insertBefore(node, anchor);
    placed.current = {
      ids,
      nodes: [...before.nodes.slice(0, head), ...added, ...before.nodes.slice(next)],
    };
  }, [content]);

  // biome-ignore lint/security/noDangerouslySetInnerHtml: rendered by the server's Markdown code (markdown.ts), safe by construction
  return <div ref={element} dangerouslySetInnerHTML={{ __html: first }} />;
}
