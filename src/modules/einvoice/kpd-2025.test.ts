// test-engines: sqlite
import { test } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { isKpd2025Code } from './kpd-2025.ts';

/**
 * Portico's KPD 2025 list is exactly the one HR-CIUS's HR-BR-CL-2 checks: read back from Porezna
 * uprava's code list as vendored for the tests, every code is known and no other six-digit code is.
 */
test('the KPD 2025 list is the one in the official HR-CIUS code list (HR-BR-CL-2), no more, no less', () => {
  const schematron = fs.readFileSync(
    path.join(
      import.meta.dirname,
      '../../../test/fixtures/einvoice/hr-cius/codelist/HR-CIUS-EXT-EN16931-UBL-codes.sch',
    ),
    'utf8',
  );
  const listed = schematron.match(/@listID = 'CG'\) and contains\(' ([^']*) '/)?.[1]?.split(' ') ?? [];
  assert.equal(listed.length, 3359);
  for (const code of listed) assert.ok(isKpd2025Code(code), code);
  const known = new Set(listed);
  let others = 0;
  for (let n = 0; n < 1_000_000; n += 7) {
    const digits = String(n).padStart(6, '0');
    const code = `${digits.slice(0, 2)}.${digits.slice(2, 4)}.${digits.slice(4)}`;
    if (!known.has(code)) {
      assert.equal(isKpd2025Code(code), false, code);
      others++;
    }
  }
  assert.ok(others > 100_000);
  // A KPD 2015 code KPD 2025 dropped, a class without its subcategory, a code with spaces.
  for (const code of ['58.11.19', '47.52', ' 20.30.12', '20.30.12 ']) assert.equal(isKpd2025Code(code), false, code);
});
