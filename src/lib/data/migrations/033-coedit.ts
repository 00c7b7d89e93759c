import type { Migration } from './index';

// Co-editing (docs/decisions/0050): a page's shared document is the Yjs updates its editors
// sent, each stored (committed) before it is acknowledged or relayed. `coedit_documents` holds
// one row per page that has a document: `seq`, the last update's number, which a writer takes
// under the row's lock so numbers commit in order (a reader that has applied up to N reads
// `seq > N` and misses nothing); `snapshot`, the merge of every update up to `snapshot_seq`,
// whose updates are deleted in the transaction that writes it (compaction); `written_version`,
// the page version the document last wrote as the draft, so a save by another path (the form,
// the CLI) is told from the document's own. Not copied by `db copy`: the draft it wrote is.
const columns = (bytes: string) => `
CREATE TABLE coedit_documents (
  page_id INTEGER PRIMARY KEY REFERENCES pages(id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  snapshot ${bytes},
  snapshot_seq BIGINT NOT NULL DEFAULT 0,
  written_version INTEGER,
  created_at TEXT NOT NULL
);
CREATE TABLE coedit_updates (
  page_id INTEGER NOT NULL REFERENCES coedit_documents(page_id) ON DELETE CASCADE,
  seq BIGINT NOT NULL,
  data ${bytes} NOT NULL,
  created_at TEXT NOT NULL,
  created_by TEXT,
  PRIMARY KEY (page_id, seq)
);
`;

export const migration033: Migration = {
  id: 33,
  name: 'coedit',
  sqlite: columns('BLOB'),
  postgres: columns('BYTEA'),
};
