// The app's access-code check (web/app/access-code.js) on the cases of
// Tests/ZKPinWireTests/AccessCodeTests.swift, and on every one-digit change of valid codes: a
// mistyped code is reported as mistyped, never as expired, before any server is asked.

import assert from "node:assert/strict";
import test from "node:test";
import { accessCodeProblem, checkDigit, isValidAccessCode } from "../app/access-code.js";
import { seededRandom } from "../test-support/seeded-random.js";

test("the check digit follows the weights 7..2, and 10 is never a check digit", () => {
  assert.equal(checkDigit([1, 2, 3, 4, 5, 6]), 0);
  assert.equal(checkDigit([0, 0, 0, 0, 0, 1]), 9);
  assert.equal(checkDigit([1, 0, 0, 0, 0, 0]), 4);
  assert.equal(checkDigit([0, 0, 0, 0, 4, 0]), null);
  assert.equal(checkDigit([1, 2, 3]), null);
  assert.equal(checkDigit([1, 2, 3, 4, 5, 10]), null);
});

test("validation: the Swift cases", () => {
  for (const code of ["1234560", "0000019"]) assert.equal(isValidAccessCode(code), true, code);
  for (const code of ["1234561", "123456", "12345600", "12345a0", "１２３４５６０", ""]) assert.equal(isValidAccessCode(code), false, code);
});

test("every one-digit change and every swap of two different neighbours is called mistyped", () => {
  const random = seededRandom();
  let checked = 0;
  while (checked < 200) {
    const six = Array.from(random.bytes(6), (b) => b % 10);
    const c = checkDigit(six);
    if (c === null) continue;
    const code = [...six, c].join("");
    assert.equal(accessCodeProblem(code), null, `${code}${random.note}`);
    for (let i = 0; i < 7; i++) {
      for (let d = 0; d <= 9; d++) {
        if (String(d) === code[i]) continue;
        const typo = code.slice(0, i) + d + code.slice(i + 1);
        assert.match(accessCodeProblem(typo), /a digit is mistyped/, `${typo} from ${code}${random.note}`);
      }
      if (i < 6 && code[i] !== code[i + 1]) {
        const swapped = code.slice(0, i) + code[i + 1] + code[i] + code.slice(i + 2);
        assert.match(accessCodeProblem(swapped), /a digit is mistyped/, `${swapped} from ${code}${random.note}`);
      }
    }
    checked += 1;
  }
});

test("a code of another length is told to be 7 digits", () => {
  assert.match(accessCodeProblem("123456"), /7 digits/);
  assert.match(accessCodeProblem("12345678"), /7 digits/);
});
