import { randomBytes } from 'node:crypto';
import type { ApiKeysService } from '../api-keys/index.ts';
import type { CatalogAdminService } from '../catalog/index.ts';
import type { CompaniesService } from '../companies/index.ts';
import { buildSampleDatasheet } from '../printing/index.ts';

/** The services a demo tenant is made with (the container has them all). */
export interface DemoDeps {
  companies: CompaniesService;
  apiKeys: ApiKeysService;
  catalogAdmin: CatalogAdminService;
  config: { datasheetMaxBytes: number };
}

export interface DemoCompany {
  companyId: string;
  adminToken: string;
  /** `password` when the demo was made with passwords (for `npm start` and `portico demo`, not for every test tenant). */
  users: Array<{ id: string; email: string; role: string; password?: string }>;
  locations: Array<{ id: string; name: string; code: string; apiKey: string }>;
  categories: Array<{ id: string; name: string; parentId: string | null }>;
  models: Array<{ id: string; name: string }>;
  products: Array<{
    id: string;
    name: string;
    barcode: string | null;
    categoryId: string | null;
    modelId: string | null;
    hasDatasheet: boolean;
    taxRate: string;
    units: Array<{ id: string; name: string; price: string }>;
  }>;
}

const DEMO_OPERATOR_OIB = '11111111119';

/**
 * A new, realistic tenant on every call — a Croatian paint and hardware shop — so a newcomer
 * and every test get isolated data with non-ASCII names, two tax rates, two locations and a
 * real datasheet.
 */
export async function createDemoCompany(c: DemoDeps, options: { passwords?: boolean } = {}): Promise<DemoCompany> {
  const company = await c.companies.createCompany(DEMO_SHOP);
  const companyId = company.id;
  const locations = await demoLocations(c, companyId);
  const { users, adminToken } = await demoTeam(c, companyId, options);
  const catalog = await demoCatalog(c, companyId);
  return { companyId, adminToken, users, locations, ...catalog };
}

/** The shop itself: a Croatian company with an address, a bank account and a print template. */
const DEMO_SHOP = {
  name: 'Boje i željezarija Šišić d.o.o.',
  address: { street: 'Ilica 242', postalCode: '10000', city: 'Zagreb' },
  country: 'HR',
  taxId: 'HR12345678903',
  // The example account of the Croatian banks' HUB-3 specification: valid, and nobody's.
  bankAccount: { iban: 'HR1210010051863000160', bic: 'ZABAHR2X', holder: 'Boje i željezarija Šišić d.o.o.' },
  currency: 'EUR',
  locale: 'hr-HR',
  timezone: 'Europe/Zagreb',
  pricesIncludeTax: false,
  quotationValidityDays: 30,
  template: {
    header: 'Boje, lakovi, alati i okovi — od 1998.',
    footer: 'Hvala na povjerenju! Šišić d.o.o. · www.sisic-boje.example',
    paymentInstructions:
      'Plaćanje na IBAN HR12 1001 0051 8630 0016 0, poziv na broj: {reference}. Iznos {total}, rok plaćanja: {dueDate}',
  },
} as const;

/** Two shops, each with a website key. */
async function demoLocations(c: DemoDeps, companyId: string): Promise<DemoCompany['locations']> {
  const locations = [];
  for (const l of [
    { name: 'Zagreb – Ilica', code: 'ZG1', address: 'Ilica 242, 10000 Zagreb' },
    { name: 'Split – Poljud', code: 'ST1', address: 'Poljudsko šetalište 5, 21000 Split' },
  ]) {
    const location = await c.companies.createLocation(companyId, l);
    const key = await c.apiKeys.createApiKey(companyId, {
      locationId: location.id,
      name: `Website (${location.code})`,
    });
    locations.push({ id: location.id, name: location.name, code: location.code, apiKey: key.key });
  }
  return locations;
}

/** An admin (the counter's operator, with an admin token), a support user and a staff member. */
async function demoTeam(
  c: DemoDeps,
  companyId: string,
  options: { passwords?: boolean },
): Promise<Pick<DemoCompany, 'users' | 'adminToken'>> {
  const suffix = companyId.slice(-6).toLowerCase();
  const users = [];
  for (const u of [
    { email: `ana.kovac+${suffix}@sisic-boje.example`, name: 'Ana Kovač', role: 'admin' },
    { email: `ivan.horvat+${suffix}@sisic-boje.example`, name: 'Ivan Horvat', role: 'support' },
    { email: `marija.babic+${suffix}@sisic-boje.example`, name: 'Marija Babić', role: 'staff' },
  ]) {
    // Hashing is deliberately slow (argon2id), so test tenants skip it unless a test signs in.
    const password = options.passwords ? randomBytes(12).toString('base64url') : undefined;
    const user = await c.companies.createUser(companyId, { ...u, ...(password ? { password } : {}) });
    users.push({ id: user.id, email: user.email, role: user.role, ...(password ? { password } : {}) });
  }
  // The admin is the operator on the counter: an operator's OIB is printed on a Croatian invoice
  // and its e-invoice needs it (HR-BR-9), so the demo's e-invoices work. Check-digit correct and
  // plainly made up (ISO 7064 MOD 11,10 over ten ones).
  await c.companies.updateUser(companyId, users[0]!.id, { operatorOib: DEMO_OPERATOR_OIB });
  const { token: adminToken } = await c.apiKeys.createAdminToken(companyId, { userId: users[0]!.id, name: 'Demo' });
  return { users, adminToken };
}

/** Categories (one nested), models, two tax rates and seven products, one with a datasheet. */
async function demoCatalog(
  c: DemoDeps,
  companyId: string,
): Promise<Pick<DemoCompany, 'categories' | 'models' | 'products'>> {
  const paint = await c.catalogAdmin.createCategory(companyId, { name: 'Boje i lakovi' });
  const woodPaint = await c.catalogAdmin.createCategory(companyId, { name: 'Boje za drvo', parentId: paint.id });
  const tools = await c.catalogAdmin.createCategory(companyId, { name: 'Alati' });
  const hardware = await c.catalogAdmin.createCategory(companyId, { name: 'Vijci i okovi' });
  const categories = [paint, woodPaint, tools, hardware];

  const chromos = await c.catalogAdmin.createModel(companyId, { name: 'Chromos Ekol' });
  const helios = await c.catalogAdmin.createModel(companyId, { name: 'Helios Spektra' });
  const bosch = await c.catalogAdmin.createModel(companyId, { name: 'Bosch Professional' });
  const models = [chromos, helios, bosch];

  const standard = await c.catalogAdmin.createTaxRate(companyId, { name: 'PDV 25 %', rate: '25' });
  const reduced = await c.catalogAdmin.createTaxRate(companyId, { name: 'PDV 5 %', rate: '5' });
  const specs = demoProducts({ paint, woodPaint, tools, hardware, chromos, helios, bosch, standard, reduced });

  const products = [];
  for (const spec of specs) {
    const { id, unitIds } = await c.catalogAdmin.createProduct(
      companyId,
      {
        name: spec.name,
        sku: spec.sku,
        barcode: 'barcode' in spec ? spec.barcode : null,
        categoryId: spec.categoryId,
        modelId: spec.modelId,
        taxRateId: spec.tax.id,
        classificationCode: spec.classificationCode,
        units: spec.units,
      },
      undefined,
      // 58.11.19 is not in KPD 2025: the demo shows how the hub refuses such a product's e-invoice.
      { acceptUnlistedKpd: spec.classificationCode === '58.11.19' },
    );
    if (spec.datasheet) {
      const pdf = await buildSampleDatasheet(spec.name, [
        'Water-based wood stain, walnut (orah).',
        'Coverage: 10-12 m2/L per coat. Drying: 2 h touch-dry, 12 h recoat.',
        'Apply at 10-30 C on clean, dry wood. Two coats recommended.',
        `Product code ${spec.sku}.`,
      ]);
      await c.catalogAdmin.setDatasheet(companyId, id, { bytes: pdf }, c.config.datasheetMaxBytes);
    }
    products.push({
      id,
      name: spec.name,
      // What a scanner reads at the counter (the hub bench scans these).
      barcode: ('barcode' in spec ? spec.barcode : null) ?? null,
      categoryId: spec.categoryId,
      modelId: spec.modelId,
      hasDatasheet: spec.datasheet,
      taxRate: spec.tax.rate,
      units: spec.units.map((u, i) => ({ id: unitIds[i]!, name: u.name, price: u.price })),
    });
  }
  return { categories, models, products };
}

type Named = { id: string };
type Rate = { id: string; rate: string };

/** The products, as data: names with diacritics, barcodes, KPD codes, several units. */
function demoProducts(r: {
  paint: Named;
  woodPaint: Named;
  tools: Named;
  hardware: Named;
  chromos: Named;
  helios: Named;
  bosch: Named;
  standard: Rate;
  reduced: Rate;
}) {
  const { paint, woodPaint, tools, hardware, chromos, helios, bosch, standard, reduced } = r;
  return [
    {
      name: 'Boja za drvo Šišmiš — orah, 0,75 L',
      sku: 'BZD-075-OR',
      // Barcodes under GS1 Croatia's prefix 385 (invented, with valid check digits); the book an ISBN-13.
      barcode: '3859991000752',
      // KPD 2025: every Croatian e-invoice line is classified (HR-BR-25).
      classificationCode: '20.30.12',
      categoryId: woodPaint.id,
      modelId: chromos.id,
      tax: standard,
      units: [{ name: 'kom', price: '12.40' }],
      datasheet: true,
    },
    {
      name: 'Lak za parket Žuti čvor, 2,5 L',
      sku: 'LAK-25-ZC',
      barcode: '3859991002503',
      classificationCode: '20.30.12',
      categoryId: paint.id,
      modelId: helios.id,
      tax: standard,
      units: [
        { name: 'kom', price: '34.90' },
        { name: 'karton (6 kom)', price: '199.00', unitCode: 'XCT' },
      ],
      datasheet: false,
    },
    {
      name: 'Fasadna boja bijela, 15 L',
      sku: 'FAS-15-BI',
      classificationCode: '20.30.11',
      categoryId: paint.id,
      modelId: helios.id,
      tax: standard,
      units: [
        { name: 'kom', price: '89.00' },
        { name: 'L', price: '6.20' },
      ],
      datasheet: false,
    },
    {
      name: 'Akumulatorska bušilica GSB 18V-55',
      sku: 'BOS-GSB18',
      classificationCode: '28.24.11',
      categoryId: tools.id,
      modelId: bosch.id,
      tax: standard,
      units: [{ name: 'kom', price: '149.99' }],
      datasheet: false,
    },
    {
      name: 'Vijci za drvo 4×40 mm (200 kom)',
      sku: 'VIJ-4X40',
      barcode: '3859991040406',
      classificationCode: '25.94.11',
      categoryId: hardware.id,
      modelId: null,
      tax: standard,
      units: [{ name: 'pak', price: '6.49' }],
      datasheet: false,
    },
    {
      name: 'Dübel-Füller Größe M, weiß — 250 g',
      sku: 'DUB-250',
      classificationCode: '20.30.22',
      categoryId: hardware.id,
      modelId: null,
      tax: standard,
      units: [{ name: 'kom', price: '4.75' }],
      datasheet: false,
    },
    {
      name: 'Priručnik „Bojanje bez mrlja”',
      sku: 'KNJ-BOJ',
      barcode: '9789530000124',
      classificationCode: '58.11.19',
      categoryId: paint.id,
      modelId: null,
      tax: reduced,
      units: [{ name: 'kom', price: '18.00' }],
      datasheet: false,
    },
  ];
}
