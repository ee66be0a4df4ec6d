import type { Said } from '../../lib/errors.ts';
import { placeholdersOf, translatorFor, type ArgsOf, type CatalogsOf } from './catalog.ts';
import { messages } from './define.ts';

/**
 * What services say when they refuse a request, in the three languages. A service throws the
 * English text (the API's `detail` and `details`, read by integrators) with its key and
 * parameters (`said`), so the hub and any client can say it in the reader's language. A message
 * not yet here is thrown as plain text and shown as it is.
 */
const errorMessages = messages({
  en: {
    'error.report.range': 'Must be on or after `from`.',
    'error.export.tooMany': 'More than {max} rows: narrow the filter, or use a report.',
    'error.report.tooLong': 'Gives more than {max} periods: choose a longer grouping or a shorter range.',
    'error.required': 'Is required.',
    'error.unknownField': 'Is not a known field.',
    'error.emailFormat': 'Must be an e-mail address.',
    'error.urlFormat': 'Must be a URL.',
    'error.invalidForm': 'Has an invalid form.',
    'error.mustBeOneOf': 'Must be one of: {values}.',
    'error.empty': 'Must not be empty.',
    'error.greaterThanZero': 'Must be greater than 0.',
    'error.tooLarge': 'Is too large.',
    'error.oneOf': 'Use one of {values}.',
    'error.length': 'Must be 1 to {max} characters.',
    'error.atLeastCharacters': 'Must be at least {min} characters.',
    'error.atMostCharacters': 'Must be at most {max} characters.',
    'error.email': 'Not an e-mail address.',
    'error.taxId.oibDigits': 'A Croatian OIB has 11 digits (optionally after "HR").',
    'error.taxId.oibCheck': 'Is not a valid OIB: the check digit does not match.',
    'error.taxId.deVatForm': 'A German VAT id is "DE" followed by 9 digits.',
    'error.taxId.deVatCheck': 'Is not a valid German VAT id: the check digit does not match.',
    'error.taxId.taken': 'A customer with this tax id already exists.',
    'error.taxId.usedByAnother': 'Another customer of this company has this tax id.',
    'error.iban.form': 'Must be an IBAN: a country code, two check digits and the account number.',
    'error.iban.length': 'Has {length} characters; an IBAN has {wanted}.',
    'error.iban.digits': 'A {country} IBAN has only digits after the country code.',
    'error.iban.check': 'The check digits do not match: a character is mistyped.',
    'error.bic.form': 'Must be a BIC of 8 or 11 characters, such as ZABAHR2X or ZABAHR2XXXX.',
    'error.locale.form': 'Must be a BCP 47 language tag, such as hr-HR, de-AT or en.',
    'error.country.form': 'Must be an ISO 3166 country code of two letters, such as HR or DE.',
    'error.address.street': 'Must not be empty; send address null to remove the address.',
    'error.bank.holder': 'Must not be empty: payment codes name the recipient.',
    'error.company.validityDays': 'Must be a whole number of days from 1 to {max}.',
    'error.location.code': 'Use 1 to 10 letters or digits.',
    'error.location.codeTaken': 'Already used by another location.',
    'error.location.unknown': 'No such location.',
    'error.user.emailTaken': 'Already a user of this company.',
    'error.user.unknown': 'No such user.',
    'error.user.lastAdmin': 'The company needs at least one active admin.',
    'error.user.currentPassword': 'The current password is wrong.',
    'error.user.language': "Use one of {languages}, or none for the company's.",
    'error.payment.amountForm': 'Use a decimal amount with at most two places, such as 12.50.',
    'error.payment.paidInFull': 'The sale is paid in full; nothing is left to pay.',
    'error.payment.notInvoice': 'A cancellation or credit note is not paid; payments go on the invoice.',
    'error.payment.invoiceCancelled': 'The invoice is cancelled; nothing is due.',
    'error.payment.overBalance': 'Is more than the balance of {balance} {currency}.',
    'error.payment.overBalanceSummary': "The payment is more than the sale's balance.",
    'error.category.unknown': 'No such category.',
    'error.category.underItself': 'A category cannot sit under itself or one of its sub-categories.',
    'error.category.inUse': 'The category still has products or sub-categories; move them first.',
    'error.model.inUse': 'Products still use this model; change them first.',
    'error.product.needsUnit': 'A product needs at least one unit.',
    'error.unit.sameName': 'Another unit of this product has the same name.',
    'error.unit.nameTaken': 'The product already has a unit with this name.',
    'error.unit.last': "This is the product's last unit; add another first or deactivate the product.",
    'error.datasheet.tooLarge': 'A datasheet may be at most {max} bytes.',
    'error.datasheet.notPdf': 'Only PDF datasheets are accepted.',
    'error.price.form': 'Use an amount from 0 to 999999999.99 with at most 2 decimal places, e.g. "12.40".',
    'error.rate.form': 'Use a percentage from 0 to 100 with at most 2 decimal places, e.g. "25" or "9.5".',
    'error.webhook.disabled': 'The endpoint is disabled; enable it before redelivering.',
    'error.webhook.sending': 'This delivery is being sent right now; look at its attempts in a moment.',
    'error.webhook.secret': 'Must be 16 to 200 printable ASCII characters, not starting or ending with a space.',
    'error.conversion.unpriced':
      'Some lines cannot be priced today: their products or units were removed from the catalog.',
    'error.conversion.productRemoved':
      'Line {position} ({product}): the product was removed from the catalog, so it has no price today.',
    'error.conversion.unitRemoved':
      'Line {position} ({product}, {unit}): the unit was removed from the product, so it has no price today.',
  },
  hr: {
    'error.report.range': 'Mora biti isti dan ili nakon početnog datuma.',
    'error.export.tooMany': 'Više od {max} redaka: suzite filtar ili upotrijebite izvještaj.',
    'error.report.tooLong': 'Daje više od {max} razdoblja: odaberite dulje grupiranje ili kraći raspon.',
    'error.required': 'Obavezno polje.',
    'error.unknownField': 'Nepoznato polje.',
    'error.emailFormat': 'Mora biti adresa e-pošte.',
    'error.urlFormat': 'Mora biti URL.',
    'error.invalidForm': 'Neispravan oblik.',
    'error.mustBeOneOf': 'Mora biti jedno od: {values}.',
    'error.empty': 'Ne smije biti prazno.',
    'error.greaterThanZero': 'Mora biti veće od 0.',
    'error.tooLarge': 'Prevelik je iznos.',
    'error.oneOf': 'Upotrijebite jedno od: {values}.',
    'error.length': 'Mora imati od 1 do {max} znakova.',
    'error.atLeastCharacters': 'Mora imati najmanje {min} znakova.',
    'error.atMostCharacters': 'Smije imati najviše {max} znakova.',
    'error.email': 'To nije adresa e-pošte.',
    'error.taxId.oibDigits': 'Hrvatski OIB ima 11 znamenki (po želji iza "HR").',
    'error.taxId.oibCheck': 'OIB nije ispravan: kontrolna znamenka ne odgovara.',
    'error.taxId.deVatForm': 'Njemački PDV ID je "DE" i 9 znamenki.',
    'error.taxId.deVatCheck': 'Njemački PDV ID nije ispravan: kontrolna znamenka ne odgovara.',
    'error.taxId.taken': 'Kupac s ovim poreznim brojem već postoji.',
    'error.taxId.usedByAnother': 'Drugi kupac ove tvrtke već ima ovaj porezni broj.',
    'error.iban.form': 'Mora biti IBAN: oznaka države, dvije kontrolne znamenke i broj računa.',
    'error.iban.length': 'Ima {length} znakova; ovaj IBAN ima {wanted}.',
    'error.iban.digits': 'IBAN države {country} iza oznake države ima samo znamenke.',
    'error.iban.check': 'Kontrolne znamenke ne odgovaraju: neki je znak pogrešno upisan.',
    'error.bic.form': 'Mora biti BIC od 8 ili 11 znakova, npr. ZABAHR2X ili ZABAHR2XXXX.',
    'error.locale.form': 'Mora biti oznaka jezika BCP 47, npr. hr-HR, de-AT ili en.',
    'error.country.form': 'Mora biti oznaka države ISO 3166 od dva slova, npr. HR ili DE.',
    'error.address.street': 'Ne smije biti prazno; za brisanje adrese pošaljite address null.',
    'error.bank.holder': 'Ne smije biti prazno: kodovi za plaćanje navode primatelja.',
    'error.company.validityDays': 'Mora biti cijeli broj dana od 1 do {max}.',
    'error.location.code': 'Upotrijebite od 1 do 10 slova ili znamenki.',
    'error.location.codeTaken': 'Već ga koristi druga lokacija.',
    'error.location.unknown': 'Ta lokacija ne postoji.',
    'error.user.emailTaken': 'Već je korisnik ove tvrtke.',
    'error.user.unknown': 'Taj korisnik ne postoji.',
    'error.user.lastAdmin': 'Tvrtka treba barem jednog aktivnog administratora.',
    'error.user.currentPassword': 'Trenutačna lozinka nije točna.',
    'error.user.language': 'Upotrijebite jedno od: {languages}, ili ništa za jezik tvrtke.',
    'error.payment.amountForm': 'Upišite iznos s najviše dvije decimale, npr. 12,50.',
    'error.payment.paidInFull': 'Prodaja je u cijelosti plaćena; ništa nije preostalo za platiti.',
    'error.payment.notInvoice': 'Storno račun i odobrenje se ne plaćaju; uplate idu na račun.',
    'error.payment.invoiceCancelled': 'Račun je storniran; ništa nije za platiti.',
    'error.payment.overBalance': 'Veće je od preostalog iznosa od {balance} {currency}.',
    'error.payment.overBalanceSummary': 'Uplata je veća od preostalog iznosa prodaje.',
    'error.category.unknown': 'Ta kategorija ne postoji.',
    'error.category.underItself': 'Kategorija ne može biti ispod same sebe ili svoje potkategorije.',
    'error.category.inUse': 'Kategorija još ima proizvode ili potkategorije; najprije ih premjestite.',
    'error.model.inUse': 'Proizvodi još koriste ovaj model; najprije ih promijenite.',
    'error.product.needsUnit': 'Proizvod treba barem jednu jedinicu.',
    'error.unit.sameName': 'Druga jedinica ovog proizvoda ima isti naziv.',
    'error.unit.nameTaken': 'Proizvod već ima jedinicu s tim nazivom.',
    'error.unit.last': 'Ovo je posljednja jedinica proizvoda; najprije dodajte drugu ili deaktivirajte proizvod.',
    'error.datasheet.tooLarge': 'Tehnički list smije imati najviše {max} bajtova.',
    'error.datasheet.notPdf': 'Prihvaćaju se samo tehnički listovi u PDF-u.',
    'error.price.form': 'Upišite iznos od 0 do 999999999,99 s najviše 2 decimale, npr. "12,40".',
    'error.rate.form': 'Upišite postotak od 0 do 100 s najviše 2 decimale, npr. "25" ili "9,5".',
    'error.webhook.disabled': 'Krajnja točka je isključena; uključite je prije ponovne isporuke.',
    'error.webhook.sending': 'Ova se isporuka upravo šalje; pogledajte njezine pokušaje za trenutak.',
    'error.webhook.secret': 'Mora imati od 16 do 200 ispisivih ASCII znakova, bez razmaka na početku ili kraju.',
    'error.conversion.unpriced':
      'Nekim stavkama danas nema cijene: njihovi su proizvodi ili jedinice uklonjeni iz kataloga.',
    'error.conversion.productRemoved':
      'Stavka {position} ({product}): proizvod je uklonjen iz kataloga pa danas nema cijenu.',
    'error.conversion.unitRemoved':
      'Stavka {position} ({product}, {unit}): jedinica je uklonjena s proizvoda pa danas nema cijenu.',
  },
  de: {
    'error.report.range': 'Muss am oder nach dem Anfangsdatum liegen.',
    'error.export.tooMany': 'Mehr als {max} Zeilen: Filter eingrenzen oder einen Bericht verwenden.',
    'error.report.tooLong':
      'Ergibt mehr als {max} Zeiträume: wählen Sie eine gröbere Gruppierung oder einen kürzeren Zeitraum.',
    'error.required': 'Pflichtfeld.',
    'error.unknownField': 'Ist kein bekanntes Feld.',
    'error.emailFormat': 'Muss eine E-Mail-Adresse sein.',
    'error.urlFormat': 'Muss eine URL sein.',
    'error.invalidForm': 'Hat eine ungültige Form.',
    'error.mustBeOneOf': 'Muss eines davon sein: {values}.',
    'error.empty': 'Darf nicht leer sein.',
    'error.greaterThanZero': 'Muss größer als 0 sein.',
    'error.tooLarge': 'Ist zu groß.',
    'error.oneOf': 'Verwenden Sie eines von: {values}.',
    'error.length': 'Muss 1 bis {max} Zeichen lang sein.',
    'error.atLeastCharacters': 'Muss mindestens {min} Zeichen lang sein.',
    'error.atMostCharacters': 'Darf höchstens {max} Zeichen lang sein.',
    'error.email': 'Keine E-Mail-Adresse.',
    'error.taxId.oibDigits': 'Eine kroatische OIB hat 11 Ziffern (wahlweise nach "HR").',
    'error.taxId.oibCheck': 'Keine gültige OIB: Die Prüfziffer stimmt nicht.',
    'error.taxId.deVatForm': 'Eine deutsche USt-IdNr. ist "DE" gefolgt von 9 Ziffern.',
    'error.taxId.deVatCheck': 'Keine gültige deutsche USt-IdNr.: Die Prüfziffer stimmt nicht.',
    'error.taxId.taken': 'Ein Kunde mit dieser Steuernummer existiert bereits.',
    'error.taxId.usedByAnother': 'Ein anderer Kunde dieser Firma hat diese Steuernummer.',
    'error.iban.form': 'Muss eine IBAN sein: Ländercode, zwei Prüfziffern und Kontonummer.',
    'error.iban.length': 'Hat {length} Zeichen; diese IBAN hat {wanted}.',
    'error.iban.digits': 'Eine IBAN aus {country} hat nach dem Ländercode nur Ziffern.',
    'error.iban.check': 'Die Prüfziffern stimmen nicht: Ein Zeichen ist vertippt.',
    'error.bic.form': 'Muss eine BIC mit 8 oder 11 Zeichen sein, etwa ZABAHR2X oder ZABAHR2XXXX.',
    'error.locale.form': 'Muss ein BCP-47-Sprachcode sein, etwa hr-HR, de-AT oder en.',
    'error.country.form': 'Muss ein zweibuchstabiger ISO-3166-Ländercode sein, etwa HR oder DE.',
    'error.address.street': 'Darf nicht leer sein; senden Sie address null, um die Adresse zu entfernen.',
    'error.bank.holder': 'Darf nicht leer sein: Zahlcodes nennen den Empfänger.',
    'error.company.validityDays': 'Muss eine ganze Zahl von Tagen von 1 bis {max} sein.',
    'error.location.code': 'Verwenden Sie 1 bis 10 Buchstaben oder Ziffern.',
    'error.location.codeTaken': 'Wird schon von einem anderen Standort verwendet.',
    'error.location.unknown': 'Diesen Standort gibt es nicht.',
    'error.user.emailTaken': 'Ist schon Benutzer dieser Firma.',
    'error.user.unknown': 'Diesen Benutzer gibt es nicht.',
    'error.user.lastAdmin': 'Die Firma braucht mindestens einen aktiven Administrator.',
    'error.user.currentPassword': 'Das aktuelle Passwort ist falsch.',
    'error.user.language': 'Verwenden Sie eines von: {languages}, oder keine für die Sprache der Firma.',
    'error.payment.amountForm': 'Geben Sie einen Betrag mit höchstens zwei Nachkommastellen ein, etwa 12,50.',
    'error.payment.paidInFull': 'Der Verkauf ist vollständig bezahlt; es ist nichts mehr offen.',
    'error.payment.notInvoice':
      'Eine Stornorechnung oder Rechnungskorrektur wird nicht bezahlt; Zahlungen gehören zur Rechnung.',
    'error.payment.invoiceCancelled': 'Die Rechnung ist storniert; es ist nichts fällig.',
    'error.payment.overBalance': 'Ist mehr als der offene Betrag von {balance} {currency}.',
    'error.payment.overBalanceSummary': 'Die Zahlung ist höher als der offene Betrag des Verkaufs.',
    'error.category.unknown': 'Diese Kategorie gibt es nicht.',
    'error.category.underItself':
      'Eine Kategorie kann nicht unter sich selbst oder einer ihrer Unterkategorien stehen.',
    'error.category.inUse': 'Die Kategorie hat noch Produkte oder Unterkategorien; verschieben Sie diese zuerst.',
    'error.model.inUse': 'Produkte verwenden dieses Modell noch; ändern Sie sie zuerst.',
    'error.product.needsUnit': 'Ein Produkt braucht mindestens eine Einheit.',
    'error.unit.sameName': 'Eine andere Einheit dieses Produkts hat denselben Namen.',
    'error.unit.nameTaken': 'Das Produkt hat schon eine Einheit mit diesem Namen.',
    'error.unit.last':
      'Das ist die letzte Einheit des Produkts; fügen Sie zuerst eine weitere hinzu oder deaktivieren Sie das Produkt.',
    'error.datasheet.tooLarge': 'Ein Datenblatt darf höchstens {max} Bytes groß sein.',
    'error.datasheet.notPdf': 'Nur Datenblätter im PDF-Format werden angenommen.',
    'error.price.form':
      'Geben Sie einen Betrag von 0 bis 999999999,99 mit höchstens 2 Nachkommastellen ein, etwa "12,40".',
    'error.rate.form':
      'Geben Sie einen Prozentsatz von 0 bis 100 mit höchstens 2 Nachkommastellen ein, etwa "25" oder "9,5".',
    'error.webhook.disabled': 'Der Endpunkt ist deaktiviert; aktivieren Sie ihn vor der erneuten Zustellung.',
    'error.webhook.sending': 'Diese Zustellung wird gerade gesendet; sehen Sie sich ihre Versuche gleich an.',
    'error.webhook.secret': 'Muss 16 bis 200 druckbare ASCII-Zeichen lang sein, ohne Leerzeichen am Anfang oder Ende.',
    'error.conversion.unpriced':
      'Einige Positionen haben heute keinen Preis: Ihre Produkte oder Einheiten wurden aus dem Katalog entfernt.',
    'error.conversion.productRemoved':
      'Position {position} ({product}): Das Produkt wurde aus dem Katalog entfernt und hat heute keinen Preis.',
    'error.conversion.unitRemoved':
      'Position {position} ({product}, {unit}): Die Einheit wurde vom Produkt entfernt und hat heute keinen Preis.',
  },
});

export type ErrorSource = typeof errorMessages.en;
export type ErrorMessageKey = keyof ErrorSource & string;

export const errorCatalogs: CatalogsOf<ErrorSource> = errorMessages;

const english = translatorFor(errorCatalogs)('en') as (key: string, params?: Record<string, string | number>) => string;

/** A refusal said by key: its English text, its key and parameters (see `Said`). */
export function said<K extends ErrorMessageKey>(key: K, ...args: ArgsOf<ErrorSource[K]>): Said {
  const params = (args[0] ?? {}) as Record<string, string | number>;
  return { text: english(key, params), key, params };
}

/**
 * The key of an English text a rule returned as text (a tax-id or IBAN check, whose callers
 * outside the services want the text): the catalog's message it is, with the parameters read
 * back out of it, or the text itself when it is not in the catalog.
 */
export function saidOf(text: string): Said | string {
  for (const { key, pattern, names } of PATTERNS) {
    const match = pattern.exec(text);
    if (!match) continue;
    const params = Object.fromEntries(names.map((name, i) => [name, match[i + 1]!]));
    return { text, key, params };
  }
  return text;
}

const PATTERNS = (Object.entries(errorMessages.en) as Array<[ErrorMessageKey, string]>).map(([key, source]) => ({
  key,
  names: placeholdersOf(source),
  pattern: new RegExp(
    `^${source
      .split(/\{\w+\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.+?)')}$`,
  ),
}));
