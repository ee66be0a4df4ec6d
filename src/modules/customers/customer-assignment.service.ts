import { AppError } from '../../lib/errors.ts';
import { said } from '../i18n/index.ts';
import type { Clock } from '../../lib/clock.ts';
import type { IdGenerator } from '../../lib/ids.ts';
import type { Store } from '../../db/store.ts';
import { emailKey, nameKey, phoneKey, prefixEnd } from './contact-keys.ts';
import { rankCustomerMatches, type CustomerMatch, type Placeholder } from './customer-matches.ts';
import { nameWords } from './name-similarity.ts';
import { TaxIdTaken, type KeyRange } from './customers.repository.ts';
import {
  companyCountry,
  customerRow,
  type CustomersRepos,
  taxIdConflict,
  toCustomer,
  type Customer,
  type NewCustomer,
} from './customers.service.ts';

/** The sales documents that arrive with a placeholder customer. */
export type DocumentKind = 'quotation' | 'order';

/** While a document is in one of these states its customer may still change; after, it is settled. */
const OPEN: Record<DocumentKind, readonly string[]> = {
  quotation: ['approved', 'accepted'],
  order: ['received', 'accepted'],
};

export type Assignment = { customerId: string } | { newCustomer: Partial<NewCustomer> };

/** How many customers each indexed probe reads, and how many suggestions are returned. */
const PER_PROBE = 25;
const MATCHES = 10;

/**
 * A sales document that arrives with a placeholder customer, as assignment reads and links it.
 * The quotations and orders repositories provide it, wired in the composition root: a document
 * refers to a directory customer, so those modules may depend on this one, never the reverse.
 */
export interface PlaceholderDocuments {
  find(
    companyId: string,
    id: string,
  ): Promise<
    { status: string; customer_name: string; customer_email: string | null; customer_phone: string | null } | undefined
  >;
  /** Links the directory customer while the document is in one of `openStatuses`; false when it is not. */
  assignCustomer(companyId: string, id: string, customerId: string, openStatuses: readonly string[]): Promise<boolean>;
}

/** The directory, and the documents whose customer link it writes. */
type AssignmentRepos = CustomersRepos & { quotations: PlaceholderDocuments; orders: PlaceholderDocuments };

interface DocumentRecord {
  status: string;
  placeholder: Placeholder;
}

async function findDocument(
  repos: AssignmentRepos,
  companyId: string,
  kind: DocumentKind,
  id: string,
): Promise<DocumentRecord> {
  const row =
    kind === 'quotation' ? await repos.quotations.find(companyId, id) : await repos.orders.find(companyId, id);
  if (!row) throw AppError.notFound(kind === 'quotation' ? 'Quotation' : 'Order');
  return {
    status: row.status,
    placeholder: { name: row.customer_name, email: row.customer_email, phone: row.customer_phone },
  };
}

function notOpen(kind: DocumentKind): AppError {
  return kind === 'quotation'
    ? new AppError('quotation_not_open', said('error.quotation.customerLocked'))
    : new AppError('order_not_open', said('error.order.customerLocked'));
}

/**
 * Where to look for a placeholder's customer, each probe one bounded range of a tenant-first
 * index (never a scan): its e-mail, its phone, its whole name in the order written and with the
 * last word first (people write "Horvat Ivan" as often as "Ivan Horvat"), and each longer word
 * as the start of a name.
 */
export function matchProbes(placeholder: Placeholder, country: string | null): KeyRange[] {
  const probes: KeyRange[] = [];
  const add = (key: KeyRange['key'], from: string | null) => {
    if (from && !probes.some((p) => p.key === key && p.from === from)) probes.push({ key, from, to: prefixEnd(from) });
  };
  if (placeholder.email?.trim()) add('email_key', emailKey(placeholder.email));
  if (placeholder.phone?.trim()) add('phone_key', phoneKey(placeholder.phone, country));
  const words = nameWords(placeholder.name);
  add('name_key', nameKey(placeholder.name));
  if (words.length > 1) add('name_key', [words.at(-1)!, ...words.slice(0, -1)].join(' '));
  for (const word of words.filter((w) => w.length >= 3).slice(0, 4)) add('name_key', word);
  return probes;
}

export function createCustomerAssignmentService(deps: {
  store: Store<AssignmentRepos>;
  clock: Clock;
  newId: IdGenerator;
}) {
  const { store, clock, newId } = deps;

  return {
    /** Directory customers ranked for the document's placeholder, best first, each with its reasons. */
    async matches(companyId: string, kind: DocumentKind, id: string): Promise<Array<CustomerMatch<Customer>>> {
      const document = await findDocument(store.repos, companyId, kind, id);
      const country = await companyCountry(store.repos, companyId);
      const seen = new Map<string, Customer>();
      for (const probe of matchProbes(document.placeholder, country)) {
        for (const row of await store.repos.customers.page(companyId, { ...probe, limit: PER_PROBE }))
          seen.set(row.id, toCustomer(row));
      }
      return rankCustomerMatches(document.placeholder, [...seen.values()], { defaultCountry: country, limit: MATCHES });
    },

    /**
     * Links the document to a directory customer: an existing one, or one created from the
     * placeholder (fields given override it) in the same unit of work. The placeholder itself is
     * never changed. Refused once the document is settled, also when it settles concurrently:
     * the link is written only where the state is still open.
     */
    async assign(companyId: string, kind: DocumentKind, id: string, assignment: Assignment): Promise<Customer> {
      const country = await companyCountry(store.repos, companyId);
      const now = clock.now().toISOString();
      try {
        return await store.unitOfWork(async (repos) => {
          const document = await findDocument(repos, companyId, kind, id);
          if (!OPEN[kind].includes(document.status)) throw notOpen(kind);
          let customer: Customer;
          if ('customerId' in assignment) {
            const row = await repos.customers.find(companyId, assignment.customerId);
            if (!row) {
              throw AppError.invalid({ customerId: [said('error.customer.noSuchId')] });
            }
            customer = toCustomer(row);
          } else {
            const given = assignment.newCustomer;
            const input: NewCustomer = {
              kind: given.kind ?? 'person',
              name: given.name ?? document.placeholder.name,
              email: given.email === undefined ? (document.placeholder.email ?? null) : given.email,
              phone: given.phone === undefined ? (document.placeholder.phone ?? null) : given.phone,
              taxId: given.taxId ?? null,
              address: given.address ?? null,
              note: given.note ?? null,
              language: given.language ?? null,
            };
            const row = customerRow(input, { id: newId('customer'), companyId, now }, country, 'newCustomer.');
            await repos.customers.insert(row);
            customer = toCustomer(row);
          }
          const linked =
            kind === 'quotation'
              ? await repos.quotations.assignCustomer(companyId, id, customer.id, OPEN.quotation)
              : await repos.orders.assignCustomer(companyId, id, customer.id, OPEN.order);
          if (!linked) {
            await findDocument(repos, companyId, kind, id); // gone meanwhile: not found, not "not open"
            throw notOpen(kind);
          }
          return customer;
        });
      } catch (error) {
        if (error instanceof TaxIdTaken) throw taxIdConflict('newCustomer.');
        throw error;
      }
    },
  };
}
export type CustomerAssignmentService = ReturnType<typeof createCustomerAssignmentService>;
