// What the app needs from the browser, checked before it asks a server for anything: a page
// that is not a secure context (plain http at an address other than this device) has no
// crypto.subtle, and a registration started there would mail a link it can never finish.

/** Why this page cannot register or sign in, in words for the person; null when it can.
 *  `scope` is the page's global object (window), or a stand-in in tests. */
export function missingCapability(scope) {
  const crypto = scope.crypto;
  if (scope.isSecureContext === false || !crypto || !crypto.subtle || typeof crypto.subtle.digest !== "function") {
    const origin = scope.location && scope.location.origin ? scope.location.origin : "this address";
    return `Registering and signing in are off here: this page came over plain http from ${origin}, ` +
      "which is not this device, so the browser withholds the cryptography (WebCrypto) the app needs. " +
      "Open the app over https, or at http://localhost on the device that runs the server.";
  }
  if (typeof crypto.getRandomValues !== "function" || typeof scope.BigInt !== "function") {
    return "This browser lacks the cryptography the app needs (a random number source and big integers): use a current browser.";
  }
  if (!scope.indexedDB) {
    return "This browser keeps no data for this page (IndexedDB is off, as in some private windows), so the app " +
      "could not keep your identity: use a normal window.";
  }
  return null;
}

/** Runs SHA-256 once, so a registration starts only where its last step (the confirmation
 *  code) can run too: throws the reason when it cannot. */
export async function ensureCapable(scope) {
  const reason = missingCapability(scope);
  if (reason) throw new Error(reason);
  await scope.crypto.subtle.digest("SHA-256", new Uint8Array(1));
}
