/**
 * A process that issues one document as the invoicing side does (prepare in the issuing
 * transaction, then the bounded send) and says "issued" once the transaction committed; the
 * crash test kills it with SIGKILL while it waits for CIS. Reads its settings from the env.
 */
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';
import type { FiscalDocument } from '../../src/modules/fiscal/index.ts';

const c = await createContainer(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }));
const doc = JSON.parse(process.env.FISCAL_DOCUMENT!) as FiscalDocument;
await c.store.unitOfWork((repos) => c.fiscaliser.prepare(repos, doc));
process.stdout.write('issued\n');
await c.fiscaliser.deliver(doc.companyId, [doc.documentId]);
process.stdout.write('delivered\n');
await c.close();
