import type { Migration } from './index';

// A page's shared document deleted (by hand, or with its page): on PostgreSQL every instance is
// told at once, on the channel the documents' updates use (payload `<page id>:gone`), so each
// one that has it loaded writes what only it heard of into the draft before a new document is
// seeded from that draft (decision record 0051, "Made again under open tabs"). Found by the poll
// alone, an instance seconds late met a new document already made, and its last acknowledged
// keystroke was lost everywhere. SQLite's one process needs no telling.
export const migration034: Migration = {
  id: 34,
  name: 'coedit-gone',
  sqlite: '',
  postgres: `
CREATE FUNCTION folio_coedit_gone() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('folio_coedit', OLD.page_id || ':gone');
  RETURN NULL;
END;
$$;
CREATE TRIGGER coedit_documents_gone AFTER DELETE ON coedit_documents
  FOR EACH ROW EXECUTE FUNCTION folio_coedit_gone();
`,
};
