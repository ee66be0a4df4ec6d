import { valuesList, type ReadPart } from '../../db/written-statements.ts';

// The companies module's parts of a batch read (readTogether): written-out SQL that other modules'
// batches join with their own in one statement, so a contact-form batch reads its recipients and
// location names in one round trip (bench/README.md, reach-out). Not a repository: a part only
// says what to select; the caller's unit of work runs it.

/**
 * readTogether's part: the users of `companyIds` in `roles`, their e-mail as the value (what
 * listRecipients reads, for a batch of inquiries read with its other lookups at once).
 */
export function recipientsPart(companyIds: readonly string[], roles: readonly string[]): ReadPart {
  return {
    key: `recipients:${companyIds.length}:${roles.length}`,
    params: [...companyIds, ...roles],
    select: (engine, first) =>
      `select company_id, id, email as value from users where company_id in ${valuesList(engine, 1, companyIds.length, first)} and role in ${valuesList(engine, 1, roles.length, first + companyIds.length)}`,
  };
}

/** readTogether's part: the names of these locations (the value), each with its company. */
export function locationNamesPart(keys: readonly { companyId: string; locationId: string }[]): ReadPart {
  const companies = [...new Set(keys.map((k) => k.companyId))];
  const ids = [...new Set(keys.map((k) => k.locationId))];
  return {
    key: `location-names:${companies.length}:${ids.length}`,
    params: [...companies, ...ids],
    select: (engine, first) =>
      `select company_id, id, name as value from locations where company_id in ${valuesList(engine, 1, companies.length, first)} and id in ${valuesList(engine, 1, ids.length, first + companies.length)}`,
  };
}
