// The access code's check digit, as the CLI checks it (Sources/ZKPinWire/AccessCode.swift and
// Sources/ZKPinClient/Payload.swift): six digits d1..d6 and c = (11 - Σ d_i·w_i mod 11) mod 11
// with weights 7,6,5,4,3,2. Any one mistyped digit, or two neighbours swapped, breaks it, so a
// mistyped code is told apart from an expired one before any server is asked.

const WEIGHTS = [7, 6, 5, 4, 3, 2];

/** The check digit of six digits, or null when it would be 10 (such codes are never drawn). */
export function checkDigit(digits) {
  if (digits.length !== WEIGHTS.length || !digits.every((d) => Number.isInteger(d) && d >= 0 && d <= 9)) return null;
  const sum = digits.reduce((total, d, i) => total + d * WEIGHTS[i], 0);
  const c = (11 - (sum % 11)) % 11;
  return c === 10 ? null : c;
}

/** True for exactly seven ASCII digits whose last is the check digit of the first six. */
export function isValidAccessCode(code) {
  if (!/^[0-9]{7}$/.test(code)) return false;
  const digits = [...code].map(Number);
  return checkDigit(digits.slice(0, 6)) === digits[6];
}

/** Why `code` cannot be an access code, in the CLI's words; null when it can. */
export function accessCodeProblem(code) {
  if (!/^[0-9]{7}$/.test(code)) return "An access code is 7 digits: check the digits on the other screen.";
  if (!isValidAccessCode(code)) {
    return `The access code ${code} is not valid: its last digit is a check digit and it does not match, so a digit is mistyped. ` +
      "Check the digits on the other screen and type them again.";
  }
  return null;
}
