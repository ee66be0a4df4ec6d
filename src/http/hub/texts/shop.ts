import { messages } from '../../../modules/i18n/index.ts';

/** The shop's everyday screens (issue 34): the payment question, searching lists, gross or net prices. */
export const shop = messages({
  en: {
    'hub.pay.otherMethod': 'The invoice states the payment method “{invoiceMethod}”. Record “{method}” anyway?',
    'hub.pay.confirm': 'Yes, record “{method}”',
    'hub.conversion.quotedLine': 'Quoted line total',
    'hub.conversion.currentLine': "Line total at today's price",
    'hub.conversion.noChange': 'No line has changed since the quotation.',
    'hub.conversion.changed': 'Changed since the quotation:',
  },
  hr: {
    'hub.pay.otherMethod': 'Na računu je način plaćanja „{invoiceMethod}”. Ipak evidentirati „{method}”?',
    'hub.pay.confirm': 'Da, evidentiraj „{method}”',
    'hub.conversion.quotedLine': 'Iznos stavke u ponudi',
    'hub.conversion.currentLine': 'Iznos stavke po današnjoj cijeni',
    'hub.conversion.noChange': 'Nijedna stavka nije se promijenila od ponude.',
    'hub.conversion.changed': 'Promijenjeno od ponude:',
  },
  de: {
    'hub.pay.otherMethod': 'Auf der Rechnung steht die Zahlungsart „{invoiceMethod}“. Trotzdem „{method}“ erfassen?',
    'hub.pay.confirm': 'Ja, „{method}“ erfassen',
    'hub.conversion.quotedLine': 'Positionsbetrag im Angebot',
    'hub.conversion.currentLine': 'Positionsbetrag zum heutigen Preis',
    'hub.conversion.noChange': 'Seit dem Angebot hat sich keine Position geändert.',
    'hub.conversion.changed': 'Seit dem Angebot geändert:',
  },
});
