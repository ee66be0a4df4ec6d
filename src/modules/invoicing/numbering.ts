/**
 * The legal number of an invoice and the series it is drawn from, one numbering per country
 * chosen in one place (`invoiceSeries`), as the fiscal step is one adapter per country.
 * Croatia: `{sequence}/{premises}/{device}`, numbered per business premises (mode P) or per
 * device (mode N) and calendar year, as the company's internal act says; elsewhere
 * `{year}-{sequence}`, one series per company and year (§14 Abs. 4 Nr. 4 UStG asks only for a
 * unique, running number). Cancellations and credit notes take their numbers from the same
 * series as invoices.
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

interface SeriesRequest {
  sequenceMode: SequenceMode;
  location: SeriesLocation;
  /** The company's first location: where a company-wide counter lives. */
  anchorLocationId: string;
  year: number;
}

/** A country's numbering: which counter an invoice draws from and how its number is written. */
type Numbering = (request: SeriesRequest) => InvoiceSeries;

/** Zakon o fiskalizaciji (NN 89/2025) and its Pravilnik: number / premises / device. */
const croatia: Numbering = ({ sequenceMode, location }) => {
  const premises = location.fiscal_premises ?? location.code;
  const device = location.fiscal_device ?? '1';
  return {
    locationId: location.id,
    kind: sequenceMode === 'device' ? `invoice-device-${device}` : 'invoice',
    premises,
    device,
    format: (sequence) => `${sequence}/${premises}/${device}`,
  };
};

/** One running number per company and year. */
const companyWide: Numbering = ({ anchorLocationId, year }) => ({
  locationId: anchorLocationId,
  kind: 'invoice-company',
  premises: null,
  device: null,
  format: (sequence) => `${year}-${sequence}`,
});

/** The one place a country's numbering is chosen; a country not listed numbers company-wide. */
const NUMBERINGS: Readonly<Record<string, Numbering>> = { HR: croatia };

export function invoiceSeries(
  company: { country: string | null; sequenceMode: SequenceMode },
  location: SeriesLocation,
  /** The company's first location: where the one company-wide counter of other countries lives. */
  companyAnchorLocationId: string,
  year: number,
): InvoiceSeries {
  const numbering = (company.country && NUMBERINGS[company.country]) || companyWide;
  return numbering({ sequenceMode: company.sequenceMode, location, anchorLocationId: companyAnchorLocationId, year });
}
