/**
 * The label of a tax id as the party's country names it: a Croatian OIB is "OIB" in every
 * language, a German one "USt-IdNr."; without a country the reader's language's own word
 * (`print.taxId`), for any other country its word for a VAT number.
 */
export function taxIdLabel(
  country: string | null | undefined,
): 'print.taxId' | 'taxId.HR' | 'taxId.DE' | 'taxId.other' {
  const code = country?.trim().toUpperCase();
  if (!code) return 'print.taxId';
  return code === 'HR' ? 'taxId.HR' : code === 'DE' ? 'taxId.DE' : 'taxId.other';
}
