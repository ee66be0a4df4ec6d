import { messages } from '../../../modules/i18n/index.ts';

/** The shop's everyday screens (issue 34): the payment question, searching lists, gross or net prices. */
export const shop = messages({
  en: {
    'hub.pay.otherMethod': 'The invoice states the payment method “{invoiceMethod}”. Record “{method}” anyway?',
    'hub.pay.confirm': 'Yes, record “{method}”',
  },
  hr: {
    'hub.pay.otherMethod': 'Na računu je način plaćanja „{invoiceMethod}”. Ipak evidentirati „{method}”?',
    'hub.pay.confirm': 'Da, evidentiraj „{method}”',
  },
  de: {
    'hub.pay.otherMethod': 'Auf der Rechnung steht die Zahlungsart „{invoiceMethod}“. Trotzdem „{method}“ erfassen?',
    'hub.pay.confirm': 'Ja, „{method}“ erfassen',
  },
});
