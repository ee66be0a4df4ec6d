/**
 * The source catalog: every label of a printed sales document, and the statuses, actions and
 * navigation words the hub shows beside them, in English. Its keys are the message keys; the
 * Croatian and German catalogs must have exactly these keys (a missing or extra key fails the
 * typecheck) and the same {placeholders} (the catalog test).
 */
export const en = {
  // Document titles (the print's title, the hub's headings)
  'document.quotation': 'Quotation',
  'document.order': 'Web order',
  'document.sale': 'Sale',
  'document.titleWithNumber': '{title} {number}',

  // Print: header and meta block
  'print.number': 'Number',
  'print.issued': 'Issued',
  'print.date': 'Date',
  'print.validUntil': 'Valid until',
  'print.dueDate': 'Due date',
  'print.location': 'Location',
  'print.customer': 'Customer',
  'print.taxId': 'Tax ID',
  // A tax id named as its country names it (taxIdLabel): Croatia's OIB, Germany's USt-IdNr.
  'taxId.HR': 'OIB',
  'taxId.DE': 'USt-IdNr.',
  'taxId.other': 'VAT number',
  'print.email': 'E-mail',
  'print.phone': 'Phone',
  'print.address': 'Address',
  'print.note': 'Note',
  'print.sourceQuotation': 'Based on quotation {number} of {date}',
  'print.sourceOrder': 'Based on web order {number} of {date}',
  'print.sourceDocument': 'Source document',

  // Print: line table
  'print.column.position': '#',
  'print.column.product': 'Product',
  'print.column.code': 'Code',
  'print.column.quantity': 'Quantity',
  'print.column.unit': 'Unit',
  'print.column.unitPrice': 'Unit price',
  'print.column.discount': 'Discount',
  'print.column.taxRate': 'Tax %',
  'print.column.amount': 'Amount',
  'print.column.net': 'Net',

  // Print: totals and tax summary
  'print.netTotal': 'Total excluding tax',
  'print.taxOnBase': 'Tax {rate} on {base}',
  'print.taxIncludedIn': 'Tax {rate} included in {gross}',
  'print.totalTax': 'Total tax',
  'print.total': 'Total ({currency})',
  'print.pricesIncludeTax': 'Prices include tax.',
  'print.pricesExcludeTax': 'Prices exclude tax.',
  'print.page': 'Page {page} of {pages}',
  'print.datasheet': 'Datasheet: {product}',

  // Print: payment
  'print.payment.instructions': 'Payment instructions',
  'print.payment.scanToPay': 'Scan with your banking app to pay',
  'print.payment.recipient': 'Recipient',
  'print.payment.iban': 'IBAN',
  'print.payment.bic': 'BIC',
  'print.payment.amount': 'Amount',
  'print.payment.model': 'Model',
  'print.payment.reference': 'Payment reference',
  'print.payment.referenceWithModel': 'Payment reference: {model} {reference}',
  'print.payment.description': 'Payment: {title} {number}',
  'print.payment.dueBy': 'Please pay {total} by {dueDate}.',

  // Hub: navigation
  'nav.today': 'Today',
  'nav.inquiries': 'Inquiries',
  'nav.notifications': 'Notifications',
  'nav.quotations': 'Quotations',
  'nav.orders': 'Web orders',
  'nav.sales': 'Sales',
  'nav.customers': 'Customers',
  'nav.catalog': 'Catalog',
  'nav.developer': 'Developer settings',
  'nav.team': 'Team',
  'nav.company': 'Company profile',
  'nav.signIn': 'Sign in',
  'nav.signOut': 'Sign out',

  // Hub: statuses
  'status.quotation.approved': 'Approved',
  'status.quotation.converted': 'Converted',
  'status.quotation.cancelled': 'Cancelled',
  'status.quotation.expired': 'Expired',
  'status.order.received': 'Received',
  'status.order.accepted': 'Accepted',
  'status.order.converted': 'Converted',
  'status.order.cancelled': 'Cancelled',
  'status.sale.unpaid': 'Unpaid',
  'status.sale.partially_paid': 'Partially paid',
  'status.sale.paid': 'Paid',

  // Hub: payments, customers, matching
  'payment.method.cash': 'Cash',
  'payment.method.card': 'Card',
  'payment.method.bank_transfer': 'Bank transfer',
  'customer.kind.person': 'Person',
  'customer.kind.business': 'Business',
  'customer.placeholder': 'Customer as received',
  'match.same_tax_id': 'Same tax ID',
  'match.same_email': 'Same e-mail',
  'match.same_phone': 'Same phone',
  'match.similar_name': 'Similar name',

  // Hub: actions
  'action.save': 'Save',
  'action.dismiss': 'Cancel',
  'action.edit': 'Edit',
  'action.search': 'Search',
  'action.back': 'Back',
  'action.more': 'Show more',
  'action.accept': 'Accept',
  'action.convert': 'Convert to sale',
  'action.cancelQuotation': 'Cancel quotation',
  'action.cancelOrder': 'Cancel order',
  'action.assignCustomer': 'Assign customer',
  'action.createCustomer': 'New customer',
  'action.recordPayment': 'Record payment',
  'action.openPdf': 'Open PDF',
  'action.markRead': 'Mark as read',
  'action.markHandled': 'Mark as handled',

  // Hub: common words
  'common.total': 'Total',
  'common.paid': 'Paid',
  'common.due': 'Due',
  'common.status': 'Status',
  'common.createdAt': 'Created',
  'common.noResults': 'Nothing found.',
  'common.reason': 'Reason',

  // The sample document a company previews its print settings on
  'print.sample.customer': 'Sample Customer Ltd.',
  'print.sample.product': 'Sample product {n}',
  'print.sample.unit': 'pcs',
} as const;
