// The account page's script (account.mustache), served as /pages/account.js: the strict policy
// of every page allows no inline script. It acts only on the page that says a device was revoked.
(function () {
  // The ZKPin app of this browser may hold the revoked identity: the sign-in page stops offering
  // "Sign in here" for it (the app's list of usable identities), and the app marks it revoked
  // when it next opens (the zkpin-revoked list).
  var revoked = document.getElementById('revoked');
  if (!revoked) return;
  try {
    var id = revoked.getAttribute('data-mpin-id');
    var held = JSON.parse(localStorage.getItem('zkpin-identity') || '[]');
    if (!Array.isArray(held) || held.indexOf(id) < 0) return;
    held = held.filter(function (x) { return x !== id; });
    if (held.length) localStorage.setItem('zkpin-identity', JSON.stringify(held)); else localStorage.removeItem('zkpin-identity');
    var gone = JSON.parse(localStorage.getItem('zkpin-revoked') || '[]');
    if (!Array.isArray(gone)) gone = [];
    gone.push(id);
    localStorage.setItem('zkpin-revoked', JSON.stringify(gone));
  } catch (e) {}
})();
