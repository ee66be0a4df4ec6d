/**
 * A process that converts one quotation into a B2B invoice paid by transfer (the e-invoice's send
 * commits with it) with its exchange worker running, and says "issued" once the conversion
 * answered; the crash test kills it with SIGKILL while the intermediary keeps the send waiting.
 * Reads its settings from the env.
 */
import { loadConfig } from '../../src/config/config.ts';
import { createContainer } from '../../src/container.ts';

const c = await createContainer(loadConfig({ ...process.env, LOG_LEVEL: 'silent' }));
await c.startWorkers();
const sale = await c.quotations.convert(
  { companyId: process.env.COMPANY_ID!, userId: process.env.USER_ID! },
  process.env.QUOTATION_ID!,
  { reprice: false, paymentMethod: 'bank_transfer' },
);
process.stdout.write(`issued ${sale.id}\n`);
