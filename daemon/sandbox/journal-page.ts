// GET /admin/sandbox/journal: the journal as JSON pages (header, entries, next_after) or as one
// replayable NDJSON file (the header line, then entries). docs/snapshots.md describes the format.
import type { BytesReply } from '../contract/route.js';
import type { JournalPage } from '../contract/journal.js';
import type { Journal } from '../record/journal.js';

export interface JournalQuery {
  after: number;
  limit?: number;
  format: 'json' | 'ndjson';
}

const DEFAULT_PAGE = 100;

export function readJournal(journal: Journal, query: JournalQuery): JournalPage | BytesReply<'application/x-ndjson'> {
  const header = journal.header();
  if (query.format === 'ndjson') {
    // A file: every entry after `after` unless a limit is given.
    const entries = journal.list(query.after, query.limit ?? Number.MAX_SAFE_INTEGER);
    const text = `${[header, ...entries].map((x) => JSON.stringify(x)).join('\n')}\n`;
    return { status: 200, raw: Buffer.from(text, 'utf8'), contentType: 'application/x-ndjson; charset=utf-8' };
  }
  const limit = query.limit ?? DEFAULT_PAGE;
  const entries = journal.list(query.after, limit + 1);
  const more = entries.length > limit;
  if (more) entries.pop();
  return { header, entries, next_after: more ? entries[entries.length - 1].seq : null };
}
