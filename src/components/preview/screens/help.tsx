// Owns /preview?help: the Markdown cheat sheet and keyboard shortcuts that ship with Folio —
// not demo content, which an editor may delete (issue 26). Each example is shown beside what
// Folio's own renderer makes of it, so the sheet cannot say one thing and the site do another.
import 'server-only';
import { renderMarkdown } from '../../../lib/markdown/markdown';

const EXAMPLES: { what: string; markdown: string }[] = [
  {
    what: 'Headings (## for a section, ### below it)',
    markdown: '## A section\n\n### A part of it',
  },
  { what: 'Bold and italic', markdown: 'Some **bold** and some *italic* words.' },
  {
    what: 'A link to a page of this site, or elsewhere',
    markdown: 'Read [the about page](/about) or [Bun](https://bun.sh).',
  },
  { what: 'A list', markdown: '- one\n- two\n- three' },
  { what: 'A numbered list', markdown: '1. first\n2. second' },
  { what: 'A quotation', markdown: '> Words someone said.' },
  { what: 'Code in a sentence', markdown: 'Run `bun run start` to begin.' },
  {
    what: 'A block of code, coloured by its language (ts, sql, bash, python…)',
    markdown: '```ts\nconst greeting: string = "hello";\n```',
  },
  { what: 'A table', markdown: '| Plan | Price |\n| --- | --- |\n| Free | 0 |' },
  { what: 'A line across the page', markdown: 'Above.\n\n---\n\nBelow.' },
];

const SHORTCUTS: { keys: string; does: string }[] = [
  {
    keys: 'Ctrl+S (⌘S on a Mac)',
    does: 'Save the draft now (it also saves itself 3 seconds after you stop typing)',
  },
  { keys: 'Ctrl+B / Ctrl+I (⌘B / ⌘I)', does: 'Bold or italic around the selection' },
  { keys: 'Ctrl+K (⌘K)', does: 'Link the selection: type an address or find a page of this site' },
  { keys: 'Ctrl+Z / Ctrl+Y (⌘Z / ⌘⇧Z)', does: 'Undo and redo, toolbar actions included' },
  { keys: 'Ctrl+F (⌘F)', does: 'Find and replace in the body' },
  {
    keys: 'Enter in a list or quote',
    does: 'Continues it; Enter on an empty item ends it',
  },
];

export async function HelpScreen() {
  const rendered = await Promise.all(EXAMPLES.map((example) => renderMarkdown(example.markdown)));
  return (
    <>
      <title>Help · Folio preview</title>
      <h1>Writing in Folio</h1>
      <p>
        Pages are written in Markdown: plain text with a few marks, turned into the page visitors
        see as you save. Raw HTML is shown as text, never run.
      </p>
      <h2 id="markdown">Markdown</h2>
      <table className="help-table">
        <thead>
          <tr>
            <th scope="col">What</th>
            <th scope="col">Type</th>
            <th scope="col">Visitors see</th>
          </tr>
        </thead>
        <tbody>
          {EXAMPLES.map((example, index) => (
            <tr key={example.what}>
              <th scope="row">{example.what}</th>
              <td>
                <pre>
                  <code>{example.markdown}</code>
                </pre>
              </td>
              {/* biome-ignore lint/security/noDangerouslySetInnerHtml: Folio's own renderer (markdown.ts), safe by construction, on fixed examples */}
              <td className="prose" dangerouslySetInnerHTML={{ __html: rendered[index] ?? '' }} />
            </tr>
          ))}
        </tbody>
      </table>
      <h2 id="images">Images</h2>
      <p>
        Upload an image in the <a href="/preview?media">media library</a> (or drop or paste it on
        the body while editing) and put the Markdown it gives you where the image goes:{' '}
        <code>![What it shows](/media/…)</code>. The words in brackets are read to people who cannot
        see the image.
      </p>
      <h2 id="listings">Lists of posts</h2>
      <p>
        A paragraph of its own that says <code>{'{{ posts }}'}</code> shows the newest published
        posts there, listed when a visitor opens the page (a new post appears at once). Choose a
        topic and how many: <code>{'{{ posts topic=cooking limit=3 }}'}</code> (by the topic's
        address; 1 to 20, 5 if not said; up to 5 lists a page), or an author:{' '}
        <code>{'{{ posts author=ada }}'}</code> (by the author's address). A list asked for wrongly
        is shown here in the preview with what to fix, and left out for visitors.
      </p>
      <h2 id="shortcuts">Keyboard shortcuts</h2>
      <dl className="help-shortcuts">
        {SHORTCUTS.map((shortcut) => (
          <div key={shortcut.keys}>
            <dt>
              <kbd>{shortcut.keys}</kbd>
            </dt>
            <dd>{shortcut.does}</dd>
          </div>
        ))}
      </dl>
    </>
  );
}
