// The login page: the token is in the URL's fragment (never sent in a request line, so never in a
// log or a proxy's history); it is taken out of the address bar at once and traded for a cookie and
// the page's secret, which is kept in this origin's sessionStorage (common.js).
import { keepSecret } from '/assets/common.js';
const token = location.hash.slice(1);
history.replaceState(null, '', '/login');
const status = document.getElementById('status');
if (!token) {
  status.textContent =
    'No login token in this link: open the URL flower-pty web printed, or run flower-pty web --login for a new one.';
} else {
  const res = await fetch('/api/login', {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ token }),
    credentials: 'same-origin',
  });
  if (res.ok) {
    keepSecret((await res.json()).secret);
    location.replace('/');
  } else status.textContent = `Not logged in: ${(await res.text()).trim()}`;
}
