import type { CustomersTable } from '../../db/schema.ts';
import type { CustomersRepository } from './customers.repository.ts';

export type CustomerRow = CustomersTable;

/** The port other modules read a document's customer through, in their own unit of work. */
export type CustomerReads = Pick<CustomersRepository, 'find' | 'findMany'>;
