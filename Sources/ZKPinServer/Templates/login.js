// The sign-in page's script (login.mustache, also the OpenID Connect authorize page), served as
// /pages/login.js: the strict policy of every page allows no inline script. Its sentences come
// from the strings file through the status element's data attributes.
(function () {
  // The QR payload <url>#<code> opened in a browser (a phone's camera app does that): the
  // ZKPin web app signs in with that code.
  var scanned = /^#([0-9]{7})$/.exec(location.hash);
  if (scanned) { location.replace('/app/#' + scanned[1]); return; }
  // This browser holds an identity of this server (the app keeps this flag): sign in here.
  // Else the app is offered to register one; a registration finished in the app's tab shows
  // "Sign in here" at once (the storage event), with this page's code still live.
  function offerHere() {
    var held = false;
    try {
      // The mpinIds of the usable identities the app holds ("1" from an older app).
      var value = localStorage.getItem('zkpin-identity');
      held = value === '1' || (value !== null && JSON.parse(value).length > 0);
    } catch (e) {}
    document.getElementById('here-line').hidden = !held;
    document.getElementById('app-line').hidden = held;
  }
  offerHere();
  window.addEventListener('storage', offerHere);
  // On a touch screen the terminal command is folded away (it stays one tap off).
  if (window.matchMedia && window.matchMedia('(pointer: coarse)').matches) document.getElementById('cli').open = false;
  var webOTT = document.getElementById('webOTT').value;
  var left = parseInt(document.getElementById('ttl').textContent, 10);
  var status = document.getElementById('status');
  // The words come from the strings file through data attributes (one place to translate).
  var say = function (key, userId) { return (status.dataset[key] || '').replace('{userId}', userId || ''); };
  var copy = document.getElementById('copy');
  if (navigator.clipboard) {
    copy.hidden = false;
    copy.addEventListener('click', function () {
      navigator.clipboard.writeText(document.getElementById('command').textContent)
        .then(function () { document.getElementById('copied').textContent = say('copied'); });
    });
  }
  var done = false;
  var countdown = setInterval(function () { if (left > 0) { left -= 1; document.getElementById('ttl').textContent = left; } }, 1000);
  // A blocked or refused login ends this code: its digits, QR code, command and countdown go.
  function retire() {
    clearInterval(countdown);
    document.getElementById('live').hidden = true;
  }
  function poll() {
    if (done) return;
    fetch('/rps/access', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({webOTT: webOTT})})
      .then(function (r) { return r.json(); })
      .then(function (a) {
        if (a.status === 'wid') status.textContent = say('wid');
        else if (a.status === 'wrong_pin') {
          var attempts = typeof a.attemptsLeft === 'number'
            ? ' ' + (a.attemptsLeft === 1 ? say('attemptLeft') : say('attemptsLeft').replace('{n}', a.attemptsLeft)) : '';
          status.textContent = say('wrongPin') + attempts;
        }
        else if (a.status === 'user') status.textContent = say('user', a.userId);
        else if (a.status === 'authenticate') {
          done = true;
          status.textContent = say('authenticate', a.userId);
          document.getElementById('authOTT').value = a.authOTT;
          document.getElementById('session').submit();
          return;
        } else if (a.status === 'blocked' || a.status === 'refused' || a.status === 'denied') {
          done = true;
          retire();
          status.textContent = say(a.status);
          var again = document.createElement('a');
          again.id = 'new-code';
          again.href = location.pathname + location.search; again.textContent = say('newCode');
          status.parentNode.insertBefore(again, status.nextSibling);
          return;
        } else if (a.status === 'expired') {
          done = true; status.textContent = say('expired');
          setTimeout(function () { location.reload(); }, 1000);
          return;
        }
        setTimeout(poll, 700);
      })
      .catch(function () { setTimeout(poll, 1500); });
  }
  // "Send a request to my device": the person's devices offer three numbers; this page shows
  // the one to tap. The answer is the same whether anybody registered the address or not.
  var pushForm = document.getElementById('push-form');
  pushForm.addEventListener('submit', function (event) {
    event.preventDefault();
    var email = document.getElementById('push-email').value.trim();
    var said = document.getElementById('push-said');
    said.textContent = '';
    fetch('/rps/push/signin', {method: 'POST', headers: {'Content-Type': 'application/json'}, body: JSON.stringify({webOTT: webOTT, userId: email})})
      .then(function (r) { return r.json().then(function (body) { return {ok: r.ok, body: body}; }); })
      .then(function (answer) {
        if (!answer.ok) {
          said.textContent = pushForm.dataset.failed + ' ' + ((answer.body && (answer.body.message || answer.body.error)) || '');
          return;
        }
        document.getElementById('push-number').textContent = String(answer.body.number);
        document.getElementById('push-number-line').hidden = false;
        said.textContent = pushForm.dataset.sent.replace('{email}', email);
      })
      .catch(function () { said.textContent = pushForm.dataset.failed; });
  });
  poll();
})();
