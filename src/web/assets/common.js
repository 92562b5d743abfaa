// Shared by the web face's pages. Everything that came from a run (a folder, a document, a prompt,
// a state) is put in the page as text (textContent), never as HTML.

export function el(tag, attrs = {}, text) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (name === 'class') node.className = value;
    else node.setAttribute(name, value);
  }
  if (text !== undefined) node.textContent = String(text);
  return node;
}

export function tokens(n) {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(n % 1_000_000 === 0 ? 0 : 1)}M`;
  if (n >= 1_000) return `${(n / 1_000).toFixed(1)}K`;
  return String(n);
}

export function ago(ms) {
  const s = Math.max(0, Math.floor(ms / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m ${s % 60}s`;
  return `${Math.floor(s / 3600)}h ${Math.floor((s % 3600) / 60)}m`;
}

// The context bar: filled to the context, a mark at "near" and at the handoff line.
export function meter(run) {
  const bar = el('div', { class: 'meter', role: 'img' });
  const window = run.window || 1;
  const pct = (n) => `${Math.min(100, Math.max(0, (n / window) * 100)).toFixed(1)}%`;
  const fill = el('div', { class: `fill ${run.phase}` });
  fill.style.width = pct(run.context);
  bar.append(fill);
  if (run.warnAt) {
    const near = el('div', { class: 'mark near' });
    near.style.left = pct(run.warnAt);
    bar.append(near);
  }
  if (run.at) {
    const line = el('div', { class: 'mark line' });
    line.style.left = pct(run.at);
    bar.append(line);
  }
  bar.setAttribute(
    'aria-label',
    `context ${tokens(run.context)} of ${tokens(run.window)}${run.at ? `, handoff at ${tokens(run.at)}` : ''}`,
  );
  return bar;
}

// Browser notifications while a page is open: asked for on a click (browsers want a gesture).
export function notificationButton(container) {
  if (!('Notification' in window)) return;
  const button = el(
    'button',
    { class: 'notify', type: 'button' },
    Notification.permission === 'granted' ? 'notifications on' : 'notify me',
  );
  button.addEventListener('click', async () => {
    const answer = await Notification.requestPermission();
    button.textContent = answer === 'granted' ? 'notifications on' : 'notifications blocked';
  });
  container.append(button);
}

export function notify(message) {
  if (!('Notification' in window) || Notification.permission !== 'granted') return;
  const note = new Notification(`flower-pty · ${message.id}`, {
    body: `${message.text}\n${message.cwd ?? ''}`,
    tag: `flower-${message.id}`,
  });
  note.addEventListener('click', () => {
    window.focus();
    location.href = `/run/${encodeURIComponent(message.id)}`;
  });
}

export function socketUrl(path) {
  return `${location.protocol === 'https:' ? 'wss' : 'ws'}://${location.host}${path}`;
}

// The page's secret: handed over by the login page, kept in this origin's sessionStorage (a page on
// another port of 127.0.0.1 cannot read it, while the browser sends it the cookie), sent with every
// request and socket. A new tab has none of its own: it asks the face's other open tabs on a channel
// only this origin hears; with no answer it says how to log in.
const SECRET_KEY = 'flower-secret';
const channel = 'BroadcastChannel' in window ? new BroadcastChannel('flower-secret') : null;
channel?.addEventListener('message', (event) => {
  const mine = sessionStorage.getItem(SECRET_KEY);
  if (event.data === 'ask' && mine) channel.postMessage({ secret: mine });
});

export async function pageSecret() {
  const mine = sessionStorage.getItem(SECRET_KEY);
  if (mine || !channel) return mine;
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(null), 500);
    channel.addEventListener('message', function answer(event) {
      if (typeof event.data?.secret !== 'string') return;
      clearTimeout(timer);
      channel.removeEventListener('message', answer);
      sessionStorage.setItem(SECRET_KEY, event.data.secret);
      resolve(event.data.secret);
    });
    channel.postMessage('ask');
  });
}

export function keepSecret(secret) {
  sessionStorage.setItem(SECRET_KEY, secret);
}

/** a page with no secret: nothing of a run is shown; how to log in is */
export function notLoggedIn() {
  document.body.replaceChildren(el('main', { class: 'narrow' }, ''));
  const main = document.body.firstChild;
  main.append(
    el('h1', {}, 'flower-pty'),
    el(
      'p',
      {},
      'This tab is not logged in. Open the login URL that flower-pty web printed (each works once, for ten minutes), or run flower-pty web --login on the machine for a new one.',
    ),
  );
}

/** a GET of the face's API with the page's secret */
export async function api(path) {
  return fetch(path, { credentials: 'same-origin', headers: { 'X-Flower-Secret': (await pageSecret()) ?? '' } });
}

/** a socket to the face, its secret offered as a subprotocol (a browser sets no header on a socket) */
export function openSocket(path, secret) {
  return new WebSocket(socketUrl(path), ['flower', `flower.${secret}`]);
}
