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
    'error.payment.overBalance': 'Is more than the balance of {balance:money} {currency}.',
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
    'error.notFound.apiKey': 'API key not found.',
    'error.notFound.category': 'Category not found.',
    'error.notFound.company': 'Company not found.',
    'error.notFound.customer': 'Customer not found.',
    'error.notFound.datasheet': 'Datasheet not found.',
    'error.notFound.delivery': 'Delivery not found.',
    'error.notFound.inquiry': 'Inquiry not found.',
    'error.notFound.location': 'Location not found.',
    'error.notFound.model': 'Model not found.',
    'error.notFound.notification': 'Notification not found.',
    'error.notFound.order': 'Order not found.',
    'error.notFound.page': 'Page not found.',
    'error.notFound.payment': 'Payment not found.',
    'error.notFound.photo': 'Photo not found.',
    'error.notFound.product': 'Product not found.',
    'error.notFound.quotation': 'Quotation not found.',
    'error.notFound.resource': 'Resource not found.',
    'error.notFound.sale': 'Sale not found.',
    'error.notFound.taxRate': 'Tax rate not found.',
    'error.notFound.unit': 'Unit not found.',
    'error.notFound.user': 'User not found.',
    'error.notFound.webhookEndpoint': 'Webhook endpoint not found.',
    'error.quotation.converted':
      'Quotation {number} cannot change: it was converted to a sale ({saleId}). Only an approved quotation can be converted or cancelled.',
    'error.quotation.cancelled':
      'Quotation {number} cannot change: it is cancelled. Only an approved quotation can be converted or cancelled.',
    'error.quotation.notOpen':
      'Quotation {number} cannot change: it is no longer approved. Only an approved quotation can be converted or cancelled.',
    'error.quotation.expired':
      'Quotation {number} expired on {expiredOn}; its prices no longer hold. An admin can convert it at today\'s prices ("reprice": true).',
    'error.quotation.customerLocked':
      'The quotation is no longer open: only an approved quotation can change its customer.',
    'error.order.customerLocked':
      'The order is no longer open: only a received or accepted order can change its customer.',
    'error.order.converted': 'Order {number} was converted to a sale; it cannot change any more.',
    'error.order.cancelled': 'Order {number} is cancelled; it cannot change any more.',
    'error.order.acceptFirst': 'Order {number} is not accepted yet; accept it before converting it.',
    'error.order.alreadyAccepted': 'Order {number} is already accepted.',
    'error.customer.requiredQuotation':
      'Assign a directory customer to the quotation before converting it (PUT …/customer).',
    'error.customer.requiredOrder': 'Assign a directory customer to the order before converting it (PUT …/customer).',
    'error.idempotency.reused': 'This Idempotency-Key was used with a different request.',
    'error.idempotency.inProgress': 'A request with this Idempotency-Key is still in progress; retry later.',
    'error.idempotency.tookOver':
      'This request took too long and another request with the same Idempotency-Key took over; retry to get its result.',
    'error.payment.alreadyVoided': 'The payment is already voided.',
    'error.invoice.isCorrection': '{number} is itself a correction; correct the invoice it names instead.',
    'error.invoice.alreadyCancelled': 'Invoice {number} is already cancelled.',
    'error.invoice.hasCreditNotes':
      'Invoice {number} has credit notes; issue a credit note for the rest instead of cancelling it.',
    'error.invoice.numberUsed':
      'Invoice number {number} is already used this year: the numbering (fiscal.sequenceMode) was changed after invoices were issued. Change it back; a new mode takes effect from the next year.',
    'error.credit.notALine': 'Is not a line of invoice {number}.',
    'error.credit.quantityForm': 'Use a decimal quantity with at most three places, such as 1.5.',
    'error.credit.moreThanLeft': 'Is more than is left to credit of line {position} ({product}): {left}.',
    'error.credit.noLines': 'Name at least one line to credit.',
    'error.credit.refused': 'The credit note cannot be issued.',
    'error.reprice.adminOnly': "Converting at today's prices needs an admin.",
    'error.reprice.roles': "Converting at today's prices needs the {roles} role.",
    'error.webhook.reason.gone': 'the receiver answered 410 Gone',
    'error.webhook.reason.unauthorized': 'the bot token was refused by Telegram',
    'error.webhook.reason.chatNotFound': 'Telegram does not know the chat (was the bot removed?)',
    'error.webhook.reason.forbiddenTarget': 'the URL resolves to a private or reserved address',
    'error.webhook.reason.failingDays': 'failing for more than {days} days',
    'error.webhook.reason.byAdmin': 'disabled by an administrator',
    'error.webhook.reason.permanent': 'permanent failure',
    'error.fiscal.noOib': "The company has no OIB (tax id) to check the certificate's against; set it first.",
    'error.fiscal.oibMismatch': "The certificate is issued to OIB {certificateOib}, the company's OIB is {companyOib}.",
    'error.fiscal.expired': 'The certificate expired on {date}.',
    'error.fiscal.notYetValid': 'The certificate is valid only from {date}.',
    'error.fiscal.premises': 'Use 1 to 20 letters or digits, as registered for the premises.',
    'error.fiscal.device': 'Use digits without a leading zero, such as 1.',
    'error.product.unknown': 'No such product.',
    'error.model.unknown': 'No such model.',
    'error.unit.unknown': 'No such unit for this product.',
  },
  hr: {
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
    'error.payment.overBalance': 'Veće je od preostalog iznosa od {balance:money} {currency}.',
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
    'error.notFound.apiKey': 'API ključ nije pronađen.',
    'error.notFound.category': 'Kategorija nije pronađena.',
    'error.notFound.company': 'Tvrtka nije pronađena.',
    'error.notFound.customer': 'Kupac nije pronađen.',
    'error.notFound.datasheet': 'Tehnički list nije pronađen.',
    'error.notFound.delivery': 'Isporuka nije pronađena.',
    'error.notFound.inquiry': 'Upit nije pronađen.',
    'error.notFound.location': 'Lokacija nije pronađena.',
    'error.notFound.model': 'Model nije pronađen.',
    'error.notFound.notification': 'Obavijest nije pronađena.',
    'error.notFound.order': 'Narudžba nije pronađena.',
    'error.notFound.page': 'Stranica nije pronađena.',
    'error.notFound.payment': 'Uplata nije pronađena.',
    'error.notFound.photo': 'Fotografija nije pronađena.',
    'error.notFound.product': 'Proizvod nije pronađen.',
    'error.notFound.quotation': 'Ponuda nije pronađena.',
    'error.notFound.resource': 'Traženo nije pronađeno.',
    'error.notFound.sale': 'Prodaja nije pronađena.',
    'error.notFound.taxRate': 'Porezna stopa nije pronađena.',
    'error.notFound.unit': 'Jedinica nije pronađena.',
    'error.notFound.user': 'Korisnik nije pronađen.',
    'error.notFound.webhookEndpoint': 'Webhook krajnja točka nije pronađena.',
    'error.quotation.converted':
      'Ponuda {number} se više ne može mijenjati: pretvorena je u prodaju ({saleId}). Pretvoriti ili otkazati može se samo odobrena ponuda.',
    'error.quotation.cancelled':
      'Ponuda {number} se više ne može mijenjati: otkazana je. Pretvoriti ili otkazati može se samo odobrena ponuda.',
    'error.quotation.notOpen':
      'Ponuda {number} se više ne može mijenjati: više nije odobrena. Pretvoriti ili otkazati može se samo odobrena ponuda.',
    'error.quotation.expired':
      'Ponuda {number} istekla je {expiredOn}; njezine cijene više ne vrijede. Administrator je može pretvoriti po današnjim cijenama.',
    'error.quotation.customerLocked': 'Ponuda više nije otvorena: kupac se može promijeniti samo na odobrenoj ponudi.',
    'error.order.customerLocked':
      'Narudžba više nije otvorena: kupac se može promijeniti samo na zaprimljenoj ili prihvaćenoj narudžbi.',
    'error.order.converted': 'Narudžba {number} pretvorena je u prodaju; više se ne može mijenjati.',
    'error.order.cancelled': 'Narudžba {number} je otkazana; više se ne može mijenjati.',
    'error.order.acceptFirst': 'Narudžba {number} još nije prihvaćena; prihvatite je prije pretvaranja.',
    'error.order.alreadyAccepted': 'Narudžba {number} je već prihvaćena.',
    'error.customer.requiredQuotation': 'Prije pretvaranja ponudi dodijelite kupca iz imenika.',
    'error.customer.requiredOrder': 'Prije pretvaranja narudžbi dodijelite kupca iz imenika.',
    'error.idempotency.reused': 'Ovaj Idempotency-Key već je upotrijebljen za drugačiji zahtjev.',
    'error.idempotency.inProgress': 'Zahtjev s ovim Idempotency-Key još je u obradi; pokušajte kasnije.',
    'error.idempotency.tookOver':
      'Ovaj je zahtjev trajao predugo pa ga je preuzeo drugi zahtjev s istim Idempotency-Key; ponovite ga za njegov rezultat.',
    'error.payment.alreadyVoided': 'Uplata je već stornirana.',
    'error.invoice.isCorrection': '{number} je i sam ispravak; ispravite račun na koji se odnosi.',
    'error.invoice.alreadyCancelled': 'Račun {number} je već storniran.',
    'error.invoice.hasCreditNotes': 'Račun {number} ima odobrenja; umjesto storniranja izdajte odobrenje za ostatak.',
    'error.invoice.numberUsed':
      'Broj računa {number} već je upotrijebljen ove godine: način numeriranja promijenjen je nakon izdanih računa. Vratite ga; novi način vrijedi od sljedeće godine.',
    'error.credit.notALine': 'Nije stavka računa {number}.',
    'error.credit.quantityForm': 'Upišite količinu s najviše tri decimale, npr. 1,5.',
    'error.credit.moreThanLeft': 'Više je nego što je ostalo za odobrenje na stavci {position} ({product}): {left}.',
    'error.credit.noLines': 'Navedite barem jednu stavku za odobrenje.',
    'error.credit.refused': 'Odobrenje se ne može izdati.',
    'error.reprice.adminOnly': 'Pretvaranje po današnjim cijenama smije samo administrator.',
    'error.reprice.roles': 'Pretvaranje po današnjim cijenama traži ulogu {roles}.',
    'error.webhook.reason.gone': 'primatelj je odgovorio 410 Gone',
    'error.webhook.reason.unauthorized': 'Telegram je odbio token bota',
    'error.webhook.reason.chatNotFound': 'Telegram ne poznaje chat (je li bot uklonjen?)',
    'error.webhook.reason.forbiddenTarget': 'URL vodi na privatnu ili rezerviranu adresu',
    'error.webhook.reason.failingDays': 'ne uspijeva više od {days} dana',
    'error.webhook.reason.byAdmin': 'isključio administrator',
    'error.webhook.reason.permanent': 'trajna pogreška',
    'error.fiscal.noOib': 'Tvrtka nema OIB s kojim bi se provjerio certifikat; najprije ga upišite.',
    'error.fiscal.oibMismatch': 'Certifikat je izdan na OIB {certificateOib}, a OIB tvrtke je {companyOib}.',
    'error.fiscal.expired': 'Certifikat je istekao {date}.',
    'error.fiscal.notYetValid': 'Certifikat vrijedi tek od {date}.',
    'error.fiscal.premises': 'Upišite 1 do 20 slova ili znamenki, kako je poslovni prostor prijavljen.',
    'error.fiscal.device': 'Upišite znamenke bez vodeće nule, npr. 1.',
    'error.product.unknown': 'Nema takvog proizvoda.',
    'error.model.unknown': 'Nema takvog modela.',
    'error.unit.unknown': 'Ovaj proizvod nema takvu jedinicu.',
  },
  de: {
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
    'error.payment.overBalance': 'Ist mehr als der offene Betrag von {balance:money} {currency}.',
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
    'error.notFound.apiKey': 'API-Schlüssel nicht gefunden.',
    'error.notFound.category': 'Kategorie nicht gefunden.',
    'error.notFound.company': 'Unternehmen nicht gefunden.',
    'error.notFound.customer': 'Kunde nicht gefunden.',
    'error.notFound.datasheet': 'Datenblatt nicht gefunden.',
    'error.notFound.delivery': 'Zustellung nicht gefunden.',
    'error.notFound.inquiry': 'Anfrage nicht gefunden.',
    'error.notFound.location': 'Standort nicht gefunden.',
    'error.notFound.model': 'Modell nicht gefunden.',
    'error.notFound.notification': 'Benachrichtigung nicht gefunden.',
    'error.notFound.order': 'Bestellung nicht gefunden.',
    'error.notFound.page': 'Seite nicht gefunden.',
    'error.notFound.payment': 'Zahlung nicht gefunden.',
    'error.notFound.photo': 'Foto nicht gefunden.',
    'error.notFound.product': 'Produkt nicht gefunden.',
    'error.notFound.quotation': 'Angebot nicht gefunden.',
    'error.notFound.resource': 'Nicht gefunden.',
    'error.notFound.sale': 'Verkauf nicht gefunden.',
    'error.notFound.taxRate': 'Steuersatz nicht gefunden.',
    'error.notFound.unit': 'Einheit nicht gefunden.',
    'error.notFound.user': 'Benutzer nicht gefunden.',
    'error.notFound.webhookEndpoint': 'Webhook-Endpunkt nicht gefunden.',
    'error.quotation.converted':
      'Angebot {number} kann nicht mehr geändert werden: Es wurde in einen Verkauf umgewandelt ({saleId}). Nur ein freigegebenes Angebot kann umgewandelt oder storniert werden.',
    'error.quotation.cancelled':
      'Angebot {number} kann nicht mehr geändert werden: Es ist storniert. Nur ein freigegebenes Angebot kann umgewandelt oder storniert werden.',
    'error.quotation.notOpen':
      'Angebot {number} kann nicht mehr geändert werden: Es ist nicht mehr freigegeben. Nur ein freigegebenes Angebot kann umgewandelt oder storniert werden.',
    'error.quotation.expired':
      'Angebot {number} ist am {expiredOn} abgelaufen; seine Preise gelten nicht mehr. Ein Administrator kann es zu heutigen Preisen umwandeln.',
    'error.quotation.customerLocked':
      'Das Angebot ist nicht mehr offen: Nur bei einem freigegebenen Angebot kann der Kunde geändert werden.',
    'error.order.customerLocked':
      'Die Bestellung ist nicht mehr offen: Nur bei einer eingegangenen oder angenommenen Bestellung kann der Kunde geändert werden.',
    'error.order.converted':
      'Bestellung {number} wurde in einen Verkauf umgewandelt; sie kann nicht mehr geändert werden.',
    'error.order.cancelled': 'Bestellung {number} ist storniert; sie kann nicht mehr geändert werden.',
    'error.order.acceptFirst': 'Bestellung {number} ist noch nicht angenommen; nehmen Sie sie vor dem Umwandeln an.',
    'error.order.alreadyAccepted': 'Bestellung {number} ist bereits angenommen.',
    'error.customer.requiredQuotation': 'Weisen Sie dem Angebot vor dem Umwandeln einen Kunden aus dem Verzeichnis zu.',
    'error.customer.requiredOrder': 'Weisen Sie der Bestellung vor dem Umwandeln einen Kunden aus dem Verzeichnis zu.',
    'error.idempotency.reused': 'Dieser Idempotency-Key wurde für eine andere Anfrage verwendet.',
    'error.idempotency.inProgress':
      'Eine Anfrage mit diesem Idempotency-Key wird noch bearbeitet; versuchen Sie es später erneut.',
    'error.idempotency.tookOver':
      'Diese Anfrage dauerte zu lange, und eine andere mit demselben Idempotency-Key hat übernommen; wiederholen Sie sie für deren Ergebnis.',
    'error.payment.alreadyVoided': 'Die Zahlung ist bereits storniert.',
    'error.invoice.isCorrection':
      '{number} ist selbst eine Korrektur; korrigieren Sie stattdessen die Rechnung, die sie nennt.',
    'error.invoice.alreadyCancelled': 'Rechnung {number} ist bereits storniert.',
    'error.invoice.hasCreditNotes':
      'Rechnung {number} hat Gutschriften; stellen Sie statt einer Stornierung eine Gutschrift über den Rest aus.',
    'error.invoice.numberUsed':
      'Rechnungsnummer {number} ist in diesem Jahr schon vergeben: Die Nummerierung wurde nach ausgestellten Rechnungen geändert. Stellen Sie sie zurück; eine neue gilt ab dem nächsten Jahr.',
    'error.credit.notALine': 'Ist keine Position der Rechnung {number}.',
    'error.credit.quantityForm': 'Geben Sie eine Menge mit höchstens drei Nachkommastellen ein, etwa 1,5.',
    'error.credit.moreThanLeft':
      'Ist mehr, als von Position {position} ({product}) noch gutgeschrieben werden kann: {left}.',
    'error.credit.noLines': 'Nennen Sie mindestens eine Position für die Gutschrift.',
    'error.credit.refused': 'Die Gutschrift kann nicht ausgestellt werden.',
    'error.reprice.adminOnly': 'Das Umwandeln zu heutigen Preisen darf nur ein Administrator.',
    'error.reprice.roles': 'Das Umwandeln zu heutigen Preisen erfordert die Rolle {roles}.',
    'error.webhook.reason.gone': 'der Empfänger antwortete 410 Gone',
    'error.webhook.reason.unauthorized': 'Telegram hat das Bot-Token abgelehnt',
    'error.webhook.reason.chatNotFound': 'Telegram kennt den Chat nicht (wurde der Bot entfernt?)',
    'error.webhook.reason.forbiddenTarget': 'die URL führt zu einer privaten oder reservierten Adresse',
    'error.webhook.reason.failingDays': 'schlägt seit mehr als {days} Tagen fehl',
    'error.webhook.reason.byAdmin': 'von einem Administrator deaktiviert',
    'error.webhook.reason.permanent': 'dauerhafter Fehler',
    'error.fiscal.noOib':
      'Das Unternehmen hat keine OIB (Steuernummer), mit der das Zertifikat geprüft werden kann; tragen Sie sie zuerst ein.',
    'error.fiscal.oibMismatch':
      'Das Zertifikat ist auf die OIB {certificateOib} ausgestellt, die OIB des Unternehmens ist {companyOib}.',
    'error.fiscal.expired': 'Das Zertifikat ist am {date} abgelaufen.',
    'error.fiscal.notYetValid': 'Das Zertifikat gilt erst ab {date}.',
    'error.fiscal.premises': 'Verwenden Sie 1 bis 20 Buchstaben oder Ziffern, wie für die Geschäftsräume angemeldet.',
    'error.fiscal.device': 'Verwenden Sie Ziffern ohne führende Null, etwa 1.',
    'error.product.unknown': 'Kein solches Produkt.',
    'error.model.unknown': 'Kein solches Modell.',
    'error.unit.unknown': 'Keine solche Einheit für dieses Produkt.',
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
      .split(/\{\w+(?::\w+)?\}/)
      .map((piece) => piece.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
      .join('(.+?)')}$`,
  ),
}));
