// SHA-256 through the platform (crypto.subtle.digest): asynchronous in browsers and in node.

/** SHA-256 of `bytes` (a Uint8Array), as a Uint8Array of 32 bytes. */
export async function sha256(bytes) {
    const subtle = globalThis.crypto && globalThis.crypto.subtle;
    if (!subtle) {
        throw new Error("no crypto.subtle here: mpin.js needs a secure context (https or localhost) or node 20 or later");
    }
    return new Uint8Array(await subtle.digest("SHA-256", bytes));
}
