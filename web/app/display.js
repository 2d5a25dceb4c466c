// The one rule for text a person approves (DisplayText in the server and the CLI): no control,
// invisible formatting or direction, line or paragraph separator, unassigned or private-use
// characters, and nothing NFKC changes. The server refuses such requests; the app checks again,
// so what it shows is what the person signs.

const unshowable = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Cs}]/u;
const unshowableAll = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cn}\p{Co}\p{Cs}]/gu;

/** Whether `text` breaks the rule. */
export const textProblem = (text) => unshowable.test(text) || text.normalize("NFKC") !== text;

/** Whether a pending request (site, binding message, every key and string of its details) breaks the rule. */
export function displayProblem(request) {
  const strings = [request.site, request.bindingMessage];
  if (request.authorizationDetails) {
    let parsed;
    try { parsed = JSON.parse(request.authorizationDetails); } catch { return true; }
    const walk = (v) => {
      if (typeof v === "string") strings.push(v);
      else if (Array.isArray(v)) v.forEach(walk);
      else if (v !== null && typeof v === "object") for (const [k, x] of Object.entries(v)) { strings.push(k); walk(x); }
    };
    walk(parsed);
  }
  return strings.some(textProblem);
}

/** `text` with each character the rule refuses written as \u{XXXX}, as the CLI writes it. */
export const escapedText = (text) =>
  text.replace(unshowableAll, (c) => `\\u{${c.codePointAt(0).toString(16).toUpperCase().padStart(4, "0")}}`);
