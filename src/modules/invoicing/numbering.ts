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
  /** The company's locations, oldest first: the first holds a company-wide counter, and a premises' counter lives at its first location. */
  locations: readonly SeriesLocation[];
  year: number;
}

/** A country's numbering: which counter an invoice draws from and how its number is written. */
type Numbering = (request: SeriesRequest) => InvoiceSeries;

const premisesOf = (l: SeriesLocation) => l.fiscal_premises ?? l.code;

/**
 * Zakon o fiskalizaciji (NN 89/2025) and its Pravilnik: number / premises / device. A second till
 * in one shop is a second location with the same premises label and another device label: both
 * draw from the counter at the premises' first location, so mode P (one sequence per premises,
 * `OznSlijed` P) numbers the premises' invoices in one run across its devices, and mode N keeps
 * one run per device label of the premises, wherever that device's location is.
 */
const croatia: Numbering = ({ sequenceMode, location, locations }) => {
  const premises = premisesOf(location);
  const device = location.fiscal_device ?? '1';
  return {
    locationId: locations.find((l) => premisesOf(l) === premises)?.id ?? location.id,
    kind: sequenceMode === 'device' ? `invoice-device-${device}` : 'invoice',
    premises,
    device,
    format: (sequence) => `${sequence}/${premises}/${device}`,
  };
};

/** One running number per company and year. */
const companyWide: Numbering = ({ location, locations, year }) => ({
  locationId: locations[0]?.id ?? location.id,
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
  /** The company's locations, oldest first (the repository's order). */
  locations: readonly SeriesLocation[],
  year: number,
): InvoiceSeries {
  const numbering = (company.country && NUMBERINGS[company.country]) || companyWide;
  return numbering({ sequenceMode: company.sequenceMode, location, locations, year });
}
