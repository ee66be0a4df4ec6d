/**
 * The legal number of an invoice and the series it is drawn from. Croatia: `{sequence}/{premises}/
 * {device}`, numbered per business premises (mode P) or per device (mode N) and calendar year, as
 * the company's internal act says; elsewhere `{year}-{sequence}`, one series per company and year
 * (§14 Abs. 4 Nr. 4 UStG asks only for a unique, running number). Cancellations and credit notes
 * take their numbers from the same series as invoices.
 */
export type SequenceMode = 'premises' | 'device';

export interface InvoiceSeries {
  /** The counter row: per location (premises) and kind, per year. */
  locationId: string;
  kind: string;
  premises: string | null;
  device: string | null;
  format(sequence: number): string;
}

export interface SeriesLocation {
  id: string;
  code: string;
  fiscal_premises: string | null;
  fiscal_device: string | null;
}

export function invoiceSeries(
  company: { country: string | null; sequenceMode: SequenceMode },
  location: SeriesLocation,
  /** The company's first location: where the one company-wide counter of other countries lives. */
  companyAnchorLocationId: string,
  year: number,
): InvoiceSeries {
  if (company.country === 'HR') {
    const premises = location.fiscal_premises ?? location.code;
    const device = location.fiscal_device ?? '1';
    return {
      locationId: location.id,
      kind: company.sequenceMode === 'device' ? `invoice-device-${device}` : 'invoice',
      premises,
      device,
      format: (sequence) => `${sequence}/${premises}/${device}`,
    };
  }
  return {
    locationId: companyAnchorLocationId,
    kind: 'invoice-company',
    premises: null,
    device: null,
    format: (sequence) => `${year}-${sequence}`,
  };
}
