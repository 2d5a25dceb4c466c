// The app's display rule (web/app/display.js) on the cases the server's DisplayText refuses and
// allows (Tests/ZKPinWireTests/DisplayTextTests.swift): a request whose text breaks it is shown
// escaped and cannot be approved.

import assert from "node:assert/strict";
import test from "node:test";
import { displayProblem, escapedText, textProblem } from "../app/display.js";

test("plain text in any script passes and is shown as it is", () => {
  for (const text of ["Pay 100 EUR to Bob", "Überweisung an Zoë: 12,50 €", "支付 100 元", "Оплата 100 ₽", "ادفع 100", "👍🏽 Deploy v2"]) {
    assert.equal(textProblem(text), false, text);
    assert.equal(escapedText(text), text);
  }
});

test("controls, separators, bidi, zero-width and look-alike forms are refused", () => {
  for (const text of ["1 EUR\u001b[2K\r9999 EUR", "a\nb", "a\u007f", "a\u0085b", "Bob\u202e", "a\u2066b", "a\u200bb", "a\u2028b",
    "a\u2029b", "a\ue000", "\ufb01ve", "ＡＢＣ", "e\u0301"]) {
    assert.equal(textProblem(text), true, JSON.stringify(text));
  }
  assert.equal(textProblem("\u00e9"), false);
});

test("escaping writes each refused character as its code, as the CLI does", () => {
  assert.equal(escapedText("Bob\u202eX\u001b[31m"), "Bob\\u{202E}X\\u{001B}[31m");
  assert.equal(escapedText("a\u2028b"), "a\\u{2028}b");
});

test("a request is refused when its site, message or any key or string of its details breaks the rule", () => {
  const ok = { site: "Bank", bindingMessage: "Pay 100 EUR", authorizationDetails: '[{"type":"payment","amount":"100"}]' };
  assert.equal(displayProblem(ok), false);
  assert.equal(displayProblem({ ...ok, site: "Ba\u202enk" }), true);
  assert.equal(displayProblem({ ...ok, bindingMessage: "Pay 1 EUR\u2028Pay 1000 EUR" }), true);
  assert.equal(displayProblem({ ...ok, authorizationDetails: '[{"type":"payment","amount":"1\\r\\n9999"}]' }), true);
  assert.equal(displayProblem({ ...ok, authorizationDetails: '[{"type":"payment","\\u001b[2Kamount":"1"}]' }), true);
  assert.equal(displayProblem({ ...ok, authorizationDetails: "not json" }), true);
});
