import { parentPort, workerData } from 'node:worker_threads';
import { createDatabase } from '../../db/database.ts';
import { createStore } from '../../db/store.ts';
import { newId } from '../../lib/ids.ts';
import type { InquiryRow } from './inquiries.repository.ts';
import { writeInquiries } from './write-inquiries.ts';

/** The SQLite writer thread: its own connection, the same repositories and the same write. */
const database = createDatabase((workerData as { databaseUrl: string }).databaseUrl);
const store = createStore(database);

parentPort!.on('message', (message: { id: number; rows: InquiryRow[]; withEmail: boolean } | 'close') => {
  if (message === 'close') {
    void database.close().then(() => parentPort!.close());
    return;
  }
  store.transaction((repos) => writeInquiries(repos, message.rows, { newId, withEmail: message.withEmail })).then(
    (queuedEmails) => parentPort!.postMessage({ id: message.id, queuedEmails }),
    (error: unknown) => parentPort!.postMessage({ id: message.id, error: error instanceof Error ? error.message : String(error) }),
  );
});
