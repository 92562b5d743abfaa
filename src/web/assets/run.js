// A run's page: claude's screen in xterm.js (painted from the run server's own screen model, then
// streamed, always at claude's size: a page never resizes claude), the meter, the document (text;
// editable during review, with a version), approvals and commands, and typing when allowed.
import { Terminal } from '/vendor/xterm.mjs';
import { FitAddon } from '/vendor/addon-fit.mjs';
import { el, tokens, meter, notificationButton, notify, socketUrl } from '/assets/common.js';

const id = decodeURIComponent(location.pathname.split('/').pop());
const $ = (name) => document.getElementById(name);
$('runid').textContent = id;
document.title = `flower-pty · ${id}`;
notificationButton($('tools'));

const term = new Terminal({ cols: 80, rows: 24, scrollback: 1000, fontSize: 13, convertEol: false, allowProposedApi: true, disableStdin: true, cursorBlink: false });
const fit = new FitAddon();
term.loadAddon(fit);
term.open($('term'));
window.flowerTerm = term; // the screen's text, for a person's console and the tests

let ws = null;
let allowInput = false;
let view = null;
let doc = { path: null, text: null, version: null };
let editBase = null; // the version the edit box started from
let childEnded = false;

// Claude's columns fit the box when the font can be made small enough to stay readable; else the
// box scrolls sideways (a phone shows part of a wide claude, readable, rather than all of it tiny).
function fitFont() {
  const dims = fit.proposeDimensions(); // the columns that fit the box at the current font size
  if (!dims || !dims.cols) return;
  const size = term.options.fontSize;
  const next = Math.max(8, Math.min(14, Math.floor(((size * dims.cols) / term.cols) * 2) / 2));
  if (next !== size) term.options.fontSize = next;
}
window.addEventListener('resize', fitFont);

function send(message) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify(message));
}
window.flowerSend = send; // what the page's keys send, for the bench (scripts/bench-web.mjs); the server decides

function say(text) {
  $('notice').textContent = text;
}

function showStatus() {
  const v = view;
  if (!v) return;
  const waiting = v.attention && v.attention.startsWith('waiting for your permission: ') ? v.attention.slice('waiting for your permission: '.length) : null;
  $('state').textContent = v.attention ?? (v.phase === 'review' ? `review${v.held ? ' (held)' : v.reviewLeft != null ? ` ${Math.ceil(v.reviewLeft)} s` : ''}` : v.phase);
  $('meter').replaceChildren(meter({ phase: v.phase, context: v.context, window: v.window, at: v.at, warnAt: v.warnAt }));
  $('metertext').textContent = `gen ${v.generation}/${v.maxGenerations} · ${tokens(v.context)}/${tokens(v.window)} · handoff at ${tokens(v.at)}${v.note ? ` · ${v.note}` : ''}`;
  $('permission').hidden = waiting === null;
  $('permtext').textContent = waiting === null ? '' : `claude asks to run: ${waiting}`;
  for (const b of ['approve', 'deny', 'handoff', 'hold', 'release', 'end']) $(b).disabled = !allowInput;
  $('hold').hidden = v.phase !== 'review' || v.held;
  $('release').hidden = v.phase !== 'review' || !v.held;
  $('handoff').hidden = !(v.phase === 'working' || v.phase === 'near');
  const reviewing = v.phase === 'review' && allowInput;
  if (reviewing && $('editor').hidden) {
    $('doctext').value = doc.text ?? '';
    editBase = doc.version;
    $('saveinfo').textContent = 'the successor starts from this text when the review ends';
    $('newer').hidden = true;
  }
  $('editor').hidden = !reviewing;
}

function showDocument() {
  $('docpath').textContent = doc.path ?? '';
  $('doc').textContent = doc.text ?? 'No handoff yet: the document appears here when the session writes it.';
}

function onMessage(m) {
  switch (m.t) {
    case 'hello':
      allowInput = m.allowInput;
      view = m.run.status;
      $('inputbar').hidden = !allowInput;
      $('actions').classList.toggle('readonly', !allowInput);
      if (!allowInput) say('read-only: this web face was started without --allow-input');
      showStatus();
      return;
    case 'screen':
      if (term.cols !== m.cols || term.rows !== m.rows) term.resize(m.cols, m.rows);
      term.reset();
      term.write(m.data, fitFont);
      return;
    case 'output':
      term.write(m.data);
      return;
    case 'size':
      term.resize(m.cols, m.rows);
      fitFont();
      return;
    case 'child':
      if (m.state === 'started' && childEnded) term.reset();
      childEnded = m.state === 'ended';
      return;
    case 'status':
      view = m.view;
      showStatus();
      return;
    case 'document':
      doc = { path: m.path, text: m.text, version: m.version };
      showDocument();
      return;
    case 'message':
      say(m.text);
      return;
    case 'result':
      if (m.of === 'save') {
        if (m.ok) {
          editBase = m.version;
          $('saveinfo').textContent = 'saved: the successor starts from this text';
          $('newer').hidden = true;
        } else {
          $('saveinfo').textContent = m.problem;
          if (m.text !== undefined) {
            $('newer').hidden = false;
            $('newer').textContent = m.text ?? '';
            editBase = m.version;
          }
        }
      } else if (!m.ok) say(m.problem);
      else say(`${m.of}: done`);
      return;
    case 'notify':
      notify(m);
      return;
    case 'ended':
      say(m.reason === 'gone' || m.reason === 'refused' ? m.message : `the run ended${m.message ? `: ${m.message}` : ''}`);
      $('state').textContent = 'ended';
      return;
  }
}

function connect() {
  ws = new WebSocket(socketUrl(`/ws/run/${encodeURIComponent(id)}`));
  ws.addEventListener('message', (event) => onMessage(JSON.parse(event.data)));
  ws.addEventListener('close', (event) => {
    if ($('state').textContent !== 'ended') say(`disconnected${event.reason ? `: ${event.reason}` : ''}`);
  });
}

// Keys typed on the terminal itself (a keyboard): xterm's onKey fires for keys only, never for
// the answers its emulator gives to claude's queries (those are the run server's to give).
term.onKey(({ key }) => {
  if (allowInput) send({ t: 'input', data: key });
});
for (const button of document.querySelectorAll('[data-key]')) button.addEventListener('click', () => send({ t: 'key', key: button.dataset.key }));
$('compose').addEventListener('submit', (event) => {
  event.preventDefault();
  const text = $('composetext').value;
  if (text === '') return send({ t: 'key', key: 'enter' });
  send({ t: 'compose', text });
  $('composetext').value = '';
});
$('approve').addEventListener('click', () => send({ t: 'approve' }));
$('deny').addEventListener('click', () => send({ t: 'deny' }));
$('handoff').addEventListener('click', () => send({ t: 'command', command: 'force-handoff' }));
$('hold').addEventListener('click', () => send({ t: 'command', command: 'hold' }));
$('release').addEventListener('click', () => send({ t: 'command', command: 'release' }));
$('end').addEventListener('click', () => {
  if (confirm(`End run ${id}? claude is ended cleanly; flower-pty --continue picks the lineage up later.`)) send({ t: 'end' });
});
$('save').addEventListener('click', () => send({ t: 'save', text: $('doctext').value, version: editBase ?? '' }));
showDocument();
connect();
