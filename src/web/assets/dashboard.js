// The dashboard: every live run, the ones that need a person first (the server orders them), live.
import {
  el,
  tokens,
  ago,
  meter,
  notificationButton,
  notify,
  openSocket,
  pageSecret,
  notLoggedIn,
} from '/assets/common.js';

const list = document.getElementById('runs');
const empty = document.getElementById('empty');
const conn = document.getElementById('conn');
notificationButton(document.getElementById('tools'));
let runs = [];
const skew = 0;

function row(run) {
  const li = el('li', { class: `run u${run.urgency}`, 'data-id': run.id, 'data-key': run.key });
  // by key: HOST:ID for another machine's run, so two hosts' runs of the same id are two pages
  const link = el('a', { href: `/run/${encodeURIComponent(run.key)}`, class: 'title' });
  link.append(
    el('span', { class: 'id' }, run.id),
    ...(run.host ? [el('span', { class: 'host' }, run.host)] : []),
    el('span', { class: 'cwd' }, run.cwd),
  );
  const state = el('div', { class: 'state' });
  state.append(
    el('span', { class: 'what' }, run.state),
    el('span', { class: 'since', 'data-since': String(run.since) }, ago(Date.now() - skew - run.since)),
  );
  const facts = el(
    'div',
    { class: 'facts' },
    `step ${run.step} · gen ${run.generation}${run.maxGenerations ? `/${run.maxGenerations}` : ''} · ${tokens(run.context)}/${tokens(run.window)}${run.at ? ` · handoff at ${tokens(run.at)}` : ''} · ${run.clients} terminal${run.clients === 1 ? '' : 's'}`,
  );
  li.append(link, state, meter(run), facts);
  return li;
}

// Each configured host's health: how many runs it has, or why it did not answer (said by the server in one line).
const hostList = document.getElementById('hosts');
let hosts = [];
function hostRow(h) {
  const text = h.checked === null ? 'asking…' : (h.problem ?? `${h.runs} run${h.runs === 1 ? '' : 's'}`);
  const li = el('li', { class: `host-health ${h.problem ? 'down' : 'up'}`, 'data-host': h.host });
  li.append(el('span', { class: 'host' }, h.host), el('span', { class: 'what' }, text));
  return li;
}

function render() {
  list.replaceChildren(...runs.map(row));
  hostList.replaceChildren(...hosts.map(hostRow));
  empty.hidden = runs.length > 0;
}

setInterval(() => {
  for (const span of document.querySelectorAll('.since'))
    span.textContent = ago(Date.now() - skew - Number(span.dataset.since));
}, 1000);

const secret = await pageSecret();
function connect() {
  const ws = openSocket('/ws/runs', secret);
  ws.addEventListener('open', () => (conn.textContent = ''));
  ws.addEventListener('message', (event) => {
    const m = JSON.parse(event.data);
    if (m.t === 'runs') {
      runs = m.runs;
      hosts = m.hosts ?? [];
      if (m.allowInput !== undefined)
        document.getElementById('mode').textContent = m.allowInput ? 'input allowed' : 'read-only';
      render();
    } else if (m.t === 'notify') notify(m);
  });
  ws.addEventListener('close', () => {
    conn.textContent = 'connection lost: reconnecting…';
    setTimeout(connect, 2000);
  });
}
if (secret) connect();
else notLoggedIn();
