// The identities this browser holds, in IndexedDB (database "zkpin", store "identities"): per
// identity its server, e-mail, device name, curve, mpinId, state and the token
// TOKEN = CS - PIN·A. Never the PIN, never the client secret.

const DB = "zkpin", STORE = "identities";

function open() {
  return new Promise((resolve, reject) => {
    const request = indexedDB.open(DB, 1);
    request.onupgradeneeded = () => request.result.createObjectStore(STORE, { keyPath: "key" });
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

async function run(mode, work) {
  const db = await open();
  try {
    return await new Promise((resolve, reject) => {
      const tx = db.transaction(STORE, mode);
      const result = work(tx.objectStore(STORE));
      tx.oncomplete = () => resolve(result && "result" in result ? result.result : undefined);
      tx.onerror = () => reject(tx.error);
    });
  } finally { db.close(); }
}

export const keyOf = (server, userId) => `${server} ${userId.toLowerCase()}`;

export async function all() {
  const list = (await run("readonly", (s) => s.getAll())) || [];
  return list.sort((a, b) => (a.server + a.userId).localeCompare(b.server + b.userId));
}

export async function get(key) { return run("readonly", (s) => s.get(key)); }

export async function put(identity) {
  await run("readwrite", (s) => s.put(identity));
  await remember();
}

export async function remove(key) {
  await run("readwrite", (s) => s.delete(key));
  await remember();
}

/** Updates fields of a stored identity. */
export async function update(key, fields) {
  const identity = await get(key);
  if (identity) await put({ ...identity, ...fields });
}

// The sign-in page of this origin offers "Sign in here with your PIN" when this browser holds
// an identity that can sign in: it reads the list of their mpinIds kept under "zkpin-identity"
// (it never opens the database). A blocked identity counts: an operator may have unblocked it,
// and only the server can say. The account page, when the person revokes one of them there,
// takes it off that list and puts it on "zkpin-revoked", which `applyRevocations` reads.
const HELD = "zkpin-identity", REVOKED = "zkpin-revoked";

async function remember() {
  const held = (await all())
    .filter((i) => i.server === location.origin && (i.state === "registered" || i.state === "blocked"))
    .map((i) => i.mpinId);
  if (held.length) localStorage.setItem(HELD, JSON.stringify(held)); else localStorage.removeItem(HELD);
}

/** Marks revoked the identities that the account page revoked in this browser. */
export async function applyRevocations() {
  let revoked;
  try { revoked = JSON.parse(localStorage.getItem(REVOKED) || "[]"); } catch { revoked = []; }
  if (!Array.isArray(revoked) || revoked.length === 0) return;
  for (const identity of await all()) {
    if (identity.server === location.origin && identity.state !== "revoked" && revoked.includes(identity.mpinId)) {
      await run("readwrite", (s) => s.put({ ...identity, state: "revoked" }));
    }
  }
  localStorage.removeItem(REVOKED);
  await remember();
}
