/*
 * Portico's drop-in contact form: <script src="{base}/embed/contact.js" data-key="ptc_pub_…"></script>
 * Draws an accessible form after the script tag (or into data-target="#id"), in the page's
 * language (data-lang, else <html lang>: hr, de, en), solves the proof of work (ALTCHA) in the
 * browser, posts to /reach-out across origins and says thank you. No cookie, no storage, no
 * tracking, no other script. Optional: data-topic (sent as the topic; without it a field is
 * shown), data-product-photo-url (an https image of the product asked about).
 */
(() => {
  'use strict';
  const script = document.currentScript;
  if (!script || !script.dataset.key) return;
  const key = script.dataset.key;
  const api = `${new URL(script.src).origin}/api/v1/public`;
  const TEXTS = {
    en: {
      title: 'Contact us',
      name: 'Name',
      email: 'E-mail',
      phone: 'Phone',
      topic: 'Topic',
      subject: 'Subject',
      message: 'Message',
      optional: '(optional)',
      send: 'Send',
      sending: 'Sending…',
      trap: 'Leave this field empty',
      thanks: 'Thank you! Your message has been sent; we will get back to you soon.',
      fix: 'Please correct the marked fields.',
      failed: 'Your message could not be sent. Please try again later.',
      required: 'Required.',
    },
    hr: {
      title: 'Kontaktirajte nas',
      name: 'Ime',
      email: 'E-pošta',
      phone: 'Telefon',
      topic: 'Tema',
      subject: 'Predmet',
      message: 'Poruka',
      optional: '(neobavezno)',
      send: 'Pošalji',
      sending: 'Šaljem…',
      trap: 'Ostavite ovo polje prazno',
      thanks: 'Hvala! Vaša je poruka poslana; javit ćemo vam se uskoro.',
      fix: 'Ispravite označena polja.',
      failed: 'Poruku nije bilo moguće poslati. Pokušajte ponovno kasnije.',
      required: 'Obavezno.',
    },
    de: {
      title: 'Kontakt',
      name: 'Name',
      email: 'E-Mail',
      phone: 'Telefon',
      topic: 'Thema',
      subject: 'Betreff',
      message: 'Nachricht',
      optional: '(optional)',
      send: 'Senden',
      sending: 'Wird gesendet…',
      trap: 'Dieses Feld leer lassen',
      thanks: 'Danke! Ihre Nachricht wurde gesendet; wir melden uns bald.',
      fix: 'Bitte korrigieren Sie die markierten Felder.',
      failed: 'Die Nachricht konnte nicht gesendet werden. Bitte später erneut versuchen.',
      required: 'Pflichtfeld.',
    },
  };
  const wanted = (script.dataset.lang || document.documentElement.lang || navigator.language || 'en')
    .slice(0, 2)
    .toLowerCase();
  const t = TEXTS[wanted] || TEXTS.en;
  const id = `portico-${Math.random().toString(36).slice(2, 8)}`;

  const el = (tag, attrs, ...children) => {
    const node = document.createElement(tag);
    for (const [name, value] of Object.entries(attrs || {}))
      if (value !== undefined && value !== false) node.setAttribute(name, value === true ? '' : value);
    for (const child of children) node.append(child);
    return node;
  };

  const form = el('form', { class: 'portico-contact', novalidate: true, 'aria-labelledby': `${id}-title` });
  form.append(el('h2', { id: `${id}-title` }, t.title));
  const fields = [
    ['name', 'input', { type: 'text', autocomplete: 'name', maxlength: '200' }, false],
    ['email', 'input', { type: 'email', autocomplete: 'email', maxlength: '254' }, true],
    ['phone', 'input', { type: 'tel', autocomplete: 'tel', maxlength: '40' }, true],
    ...(script.dataset.topic ? [] : [['topic', 'input', { type: 'text', maxlength: '200' }, true]]),
    ['subject', 'input', { type: 'text', maxlength: '200' }, true],
    ['message', 'textarea', { rows: '6', maxlength: '5000' }, true],
  ];
  for (const [name, tag, attrs, required] of fields) {
    const label = el('label', { for: `${id}-${name}` }, t[name], required ? '' : ` ${t.optional}`);
    const control = el(tag, {
      ...attrs,
      id: `${id}-${name}`,
      name,
      required: required,
      'aria-required': required ? 'true' : undefined,
    });
    form.append(el('p', { class: 'portico-field' }, label, el('br'), control));
  }
  // The honeypot: out of sight and out of the tab order for people; bots fill every field.
  const trap = el(
    'p',
    { 'aria-hidden': 'true' },
    el('label', { for: `${id}-website` }, t.trap),
    el('input', { type: 'text', id: `${id}-website`, name: 'website', tabindex: '-1', autocomplete: 'off' }),
  );
  trap.style.cssText = 'position:absolute;left:-10000px;width:1px;height:1px;overflow:hidden';
  form.append(trap);
  const status = el('p', { class: 'portico-status', role: 'status', 'aria-live': 'polite' });
  const button = el('button', { type: 'submit' }, t.send);
  form.append(status, el('p', {}, button));
  const target = script.dataset.target ? document.querySelector(script.dataset.target) : null;
  if (target) target.append(form);
  else script.after(form);

  const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
  const encoder = new TextEncoder();
  async function solve(c) {
    const max = c.maxnumber || 1000000;
    for (let n = 0; n <= max; n++) {
      if (hex(await crypto.subtle.digest('SHA-256', encoder.encode(c.salt + n))) === c.challenge)
        return btoa(
          JSON.stringify({
            algorithm: c.algorithm,
            challenge: c.challenge,
            number: n,
            salt: c.salt,
            signature: c.signature,
          }),
        );
    }
    throw new Error('proof of work not found');
  }
  const call = (path, init) =>
    fetch(api + path, {
      ...init,
      credentials: 'omit',
      referrerPolicy: 'no-referrer',
      headers: { authorization: `Bearer ${key}`, ...(init && init.headers) },
    });

  function clearErrors() {
    for (const node of form.querySelectorAll('.portico-error')) node.remove();
    for (const control of form.querySelectorAll('[aria-invalid]')) {
      control.removeAttribute('aria-invalid');
      control.removeAttribute('aria-describedby');
    }
  }
  function showError(name, messages) {
    const control = form.elements.namedItem(name);
    if (!control || name === 'website') return null;
    const note = el('span', { class: 'portico-error', id: `${id}-${name}-error` }, messages.join(' '));
    control.setAttribute('aria-invalid', 'true');
    control.setAttribute('aria-describedby', note.id);
    control.after(note);
    return control;
  }

  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearErrors();
    const data = Object.fromEntries(new FormData(form));
    const missing = fields
      .filter(([name, , , required]) => required && !String(data[name] || '').trim())
      .map(([name]) => showError(name, [t.required]));
    if (missing.length > 0) {
      status.textContent = t.fix;
      missing[0].focus();
      return;
    }
    const body = {};
    for (const [name, value] of Object.entries(data))
      if (String(value).trim() !== '' || name === 'website') body[name] = String(value).trim();
    if (!body.website) delete body.website;
    if (script.dataset.topic) body.topic = script.dataset.topic;
    if (script.dataset.productPhotoUrl) body.productPhotoUrl = script.dataset.productPhotoUrl;
    button.disabled = true;
    status.textContent = t.sending;
    try {
      const challenge = await call('/spam-challenge');
      if (!challenge.ok) throw new Error(`challenge ${challenge.status}`);
      body.altcha = await solve(await challenge.json());
      const res = await call('/reach-out', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      if (res.status === 201) {
        const thanks = el('p', { class: 'portico-thanks', role: 'status', tabindex: '-1' }, t.thanks);
        form.replaceWith(thanks);
        thanks.focus();
        return;
      }
      const problem = await res.json().catch(() => ({}));
      const shown = Object.entries(problem.details || {})
        .map(([name, messages]) => showError(name, messages))
        .filter(Boolean);
      status.textContent = shown.length > 0 ? t.fix : t.failed;
      if (shown.length > 0) shown[0].focus();
    } catch {
      status.textContent = t.failed;
    } finally {
      button.disabled = false;
    }
  });
})();
