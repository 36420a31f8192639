// The daemon's two modes that read stdin instead of listening: `--verify-snapshot` (a snapshot's verdict,
// for `svc sandbox import`) and `--replay` (a journal to rebuild a new home from, for `svc sandbox replay`).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseJournalText, type ParsedJournal, type ReplayLine } from '../contract/journal.js';

/** Reads the snapshot on stdin, prints the verdict as one JSON line; exit 0 accepted, 2 refused. */
export async function verifySnapshotOnStdin(): Promise<never> {
  const { MAX_SNAPSHOT_FILE_BYTES } = await import('../contract/snapshot.js');
  const { verifySnapshot } = await import('../sandbox/verify-snapshot.js');
  const chunks: Buffer[] = [];
  let bytes = 0;
  for await (const chunk of process.stdin) {
    bytes += (chunk as Buffer).length;
    if (bytes > MAX_SNAPSHOT_FILE_BYTES) {
      process.stdout.write(
        `${JSON.stringify({ ok: false, problem: `the file is larger than ${MAX_SNAPSHOT_FILE_BYTES} bytes` })}\n`,
      );
      process.exit(2);
    }
    chunks.push(chunk as Buffer);
  }
  const verdict = verifySnapshot(Buffer.concat(chunks));
  process.stdout.write(`${JSON.stringify(verdict.ok ? { ok: true } : verdict)}\n`, () =>
    process.exit(verdict.ok ? 0 : 2),
  );
  return new Promise<never>(() => {});
}

/** Writes one line of the replay's output; resolves once it is handed to the pipe. */
export function replayLine(line: ReplayLine): Promise<void> {
  return new Promise((done) => process.stdout.write(`${JSON.stringify(line)}\n`, () => done()));
}

export type JournalToReplay = Extract<ParsedJournal, { ok: true }>;

/** --replay: the journal on stdin, checked whole; only into a home without a sandbox (else exit 2, nothing touched). */
export async function replayJournalOnStdin(home: string): Promise<JournalToReplay> {
  const refused = async (line: number | null, message: string): Promise<never> => {
    await replayLine({ refused: { line, message } });
    process.exit(2);
  };
  if (existsSync(join(home, 'svc.db')))
    return refused(
      null,
      `${home} already holds a sandbox: a journal is replayed only into a new home, which the replay creates`,
    );
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const parsedJournal = parseJournalText(Buffer.concat(chunks).toString('utf8'));
  if (!parsedJournal.ok) return refused(parsedJournal.line, parsedJournal.message);
  return parsedJournal;
}
