/**
 * The guides under docs/ that the hub shows at /hub/help/{guide}, in the order the README lists
 * them. Only these names are served: the name is the file's, so `/hub/help/x` can never reach a
 * file that is not one of them.
 */
export const GUIDES = [
  'operating',
  'fiscalisation-hr',
  'einvoices',
  'germany',
  'websites',
  'reports',
  'hub',
  'api',
  'api-conventions',
  'development',
  'architecture',
] as const;

export type GuideName = (typeof GUIDES)[number];

export function isGuide(name: string): name is GuideName {
  return (GUIDES as readonly string[]).includes(name);
}

/**
 * The "Help" links beside the pages that need one: each names a guide and a heading's id in it
 * (GitHub's slug, so the same anchor works on GitHub). test/hub/help.test.ts renders every guide
 * and checks each of these anchors is one of its headings, so a renamed heading fails a test
 * instead of leaving a link that lands at the top of a long page.
 */
export const HELP_LINKS = {
  fiscal: { guide: 'fiscalisation-hr', anchor: 'fiscalisation-croatia' },
  tse: { guide: 'germany', anchor: 'germany-counter-sales-signed-by-a-cloud-tse-dsfinv-k' },
  exchange: { guide: 'einvoices', anchor: 'fiskalizacija-20-the-e-invoice-exchange-received-invoices-kpd-2025' },
  purchases: { guide: 'einvoices', anchor: 'fiskalizacija-20-the-e-invoice-exchange-received-invoices-kpd-2025' },
  drawer: { guide: 'hub', anchor: 'the-shops-day-at-the-counter' },
  counter: { guide: 'hub', anchor: 'the-shops-day-at-the-counter' },
  reports: { guide: 'reports', anchor: 'reports-and-exports' },
  apiKeys: { guide: 'api', anchor: 'api-behaviour-in-brief' },
  roles: { guide: 'hub', anchor: 'roles' },
} as const satisfies Record<string, { guide: GuideName; anchor: string }>;

export type HelpTopic = keyof typeof HELP_LINKS;
