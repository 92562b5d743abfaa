// A run's page: claude's screen in xterm.js (painted from the screen its socket sends first, then
// streamed, always at claude's size: a page never resizes claude, core/web/web-resize-rule.ts), the meter,
// the document (text; editable during review, with a version), the lineage so far and its live report,
// approvals and commands, and typing when allowed. What claude tells a terminal besides the screen
// reaches the page too: its links open (http, https, file; shown first, in a new tab, no opener), its
// `/copy` lands in the clipboard, its notifications in "notify me" (core/web/web-side-channels.ts).
import { Terminal } from '/vendor/xterm.mjs';
import { FitAddon } from '/vendor/addon-fit.mjs';
import { Unicode11Addon } from '/vendor/addon-unicode11.mjs';
import { pageFit } from '/core/web-resize-rule.js';
import { clipboardText, notificationOf, openableLink } from '/core/web-side-channels.js';
import { createKeyboardState } from '/core/side-channels.js';
import { shiftEnterKeys } from '/core/kitty-keys.js';
import {
  el,
  tokens,
  meter,
  notificationButton,
  notify,
  api,
  openSocket,
  pageSecret,
  notLoggedIn,
} from '/assets/common.js';

const id = decodeURIComponent(location.pathname.split('/').pop());
const $ = (name) => document.getElementById(name);
$('runid').textContent = id;
document.title = `flower-pty · ${id}`;

// The page's HTML carries nothing of the run (a cookie, which any port of 127.0.0.1 receives, opens it):
// the run comes on the socket, which needs the page's secret.
const secret = await pageSecret();

// The page's own steps, as performance marks (scripts/bench-web.mjs reads them): the module running,
// the terminal open, the first screen parsed, then painted (the frame after it). The lineage and the
// notifications button come once the first screen is up: nothing but the screen stands before it.
performance.mark('flower:module');
let painted = false;
function firstPaint() {
  if (painted) return;
  painted = true;
  performance.mark('flower:screen-parsed');
  requestAnimationFrame(() => {
    performance.mark('flower:painted');
    notificationButton($('tools'));
    loadLineage();
  });
}

// Made at claude's size and opened before anything is written, its font fitted to the box first:
// the first screen is laid out once, not once at a default size and again at the fitted one.
const term = new Terminal({
  cols: 80,
  rows: 24,
  scrollback: 1000,
  fontSize: 13,
  convertEol: false,
  allowProposedApi: true,
  cursorBlink: false,
  linkHandler: { activate: (_event, uri) => openLink(uri), allowNonHttpProtocols: true },
});
const fit = new FitAddon();
term.loadAddon(fit);
// the widths claude and the run server's emulator use: a wide character never shifts a row
term.loadAddon(new Unicode11Addon());
term.unicode.activeVersion = '11';
term.open($('term'));
window.flowerTerm = term; // the screen's text, for a person's console and the tests
performance.mark('flower:opened');

let ws = null;
let allowInput = false;
let view = null;
let doc = { path: null, text: null, version: null };
let editBase = null; // the version the edit box started from
let childEnded = false;

// Claude's columns fit the box when the font can be made small enough to stay readable; else the
// box scrolls sideways (a phone shows part of a wide claude, readable, rather than all of it tiny).
// The terminal keeps claude's size: only the font follows the page.
function fitFont() {
  const dims = fit.proposeDimensions(); // the columns that fit the box at the current font size
  const next = pageFit(
    { cols: term.cols, rows: term.rows },
    { fontSize: term.options.fontSize, fitsCols: dims?.cols ?? null },
  );
  if (next.fontSize !== term.options.fontSize) term.options.fontSize = next.fontSize;
}
window.addEventListener('resize', fitFont);

function showSize(cols, rows) {
  const next = pageFit({ cols, rows }, { fontSize: term.options.fontSize, fitsCols: null });
  if (term.cols !== next.cols || term.rows !== next.rows) term.resize(next.cols, next.rows);
}

// Keys go as a binary frame of their bytes (no JSON on the echo's way); the rest as JSON. xterm.js
// parses the first write after a person's input at once rather than on a timer (docs/libraries.md
// §3): `input('', true)` says a key went out (it reaches onData, which the page never reads), so
// claude's echo is parsed as it arrives, the key bar's and the compose box's too.
const utf8 = new TextEncoder();
function send(message) {
  if (!ws || ws.readyState !== WebSocket.OPEN) return;
  if (message.t === 'input' || message.t === 'key' || message.t === 'compose') term.input('', true);
  ws.send(message.t === 'input' ? utf8.encode(message.data) : JSON.stringify(message));
}
window.flowerSend = send; // what the page's keys send, for the bench (scripts/bench-web.mjs); the server decides

function say(text) {
  $('notice').textContent = text;
}

// A link claude drew (OSC 8): its target shown first, then opened in a new tab with no way back to this page.
function openLink(uri) {
  const target = openableLink(uri);
  if (!target) return say(`not opened (only http, https and file links are): ${uri}`);
  if (window.confirm(`Open this link from claude in a new tab?\n\n${target}`))
    window.open(target, '_blank', 'noopener,noreferrer');
}

// claude's `/copy` (OSC 52): into the clipboard now, or at the person's next click or key when the
// browser wants a gesture for it. A read is never answered (clipboardText gives nothing for it).
let pendingCopy = null;
function copyToClipboard(text) {
  pendingCopy = text;
  if (!navigator.clipboard)
    return say('claude copied its reply, but this page cannot reach the clipboard (it needs https or localhost)');
  navigator.clipboard.writeText(text).then(
    () => {
      if (pendingCopy === text) pendingCopy = null;
      say('claude copied its reply: it is in your clipboard');
    },
    () => say('claude copied its reply: click or press a key on this page to put it in your clipboard'),
  );
}
for (const gesture of ['pointerdown', 'keydown']) {
  document.addEventListener(
    gesture,
    () => {
      if (pendingCopy !== null) copyToClipboard(pendingCopy);
    },
    true,
  );
}
term.parser.registerOscHandler(52, (data) => {
  const text = clipboardText(data);
  if (text !== null) copyToClipboard(text);
  return true;
});
// claude's own notifications (OSC 9, 777, 99): to "notify me", as the run's own are
for (const ident of [9, 777, 99]) {
  term.parser.registerOscHandler(ident, (data) => {
    const note = notificationOf(ident, data);
    if (note) notify({ id, text: `${note.title}: ${note.body}` });
    return true;
  });
}

// claude's keyboard modes (the kitty protocol's pushes, pops and sets; modifyOtherKeys), kept as a terminal
// keeps them, from its stream and the first screen (which ends with them): xterm.js knows neither, so the
// page encodes shift+enter itself, as claude asked (CSI 13;2u adds a newline to claude's prompt).
const keyboard = createKeyboardState();
window.flowerKeyboard = keyboard; // the modes the page keeps, for a person's console and the tests
const firstParam = (params, fallback) => (typeof params[0] === 'number' && params[0] > 0 ? params[0] : fallback);
term.parser.registerCsiHandler({ prefix: '>', final: 'u' }, (params) => (keyboard.push(firstParam(params, 0)), true));
term.parser.registerCsiHandler({ prefix: '<', final: 'u' }, (params) => (keyboard.pop(firstParam(params, 1)), true));
term.parser.registerCsiHandler(
  { prefix: '=', final: 'u' },
  (params) => (keyboard.set(firstParam(params, 0), typeof params[1] === 'number' ? params[1] : 1), true),
);
term.parser.registerCsiHandler({ prefix: '>', final: 'm' }, (params) => {
  if (params[0] === 4) keyboard.modifyOtherKeys(typeof params[1] === 'number' ? params[1] : 0);
  return false;
});
term.parser.registerEscHandler({ final: 'c' }, () => (keyboard.reset(), false)); // RIS: the first screen starts with one
const shiftEnter = () => send({ t: 'input', data: shiftEnterKeys(keyboard.modes) });

function showStatus() {
  const v = view;
  if (!v) return;
  const waiting = v.attention?.startsWith('waiting for your permission: ')
    ? v.attention.slice('waiting for your permission: '.length)
    : null;
  $('state').textContent =
    v.attention ??
    (v.phase === 'review'
      ? `review${v.held ? ' (held)' : v.reviewLeft != null ? ` ${Math.ceil(v.reviewLeft)} s` : ''}`
      : v.phase);
  $('deadends').textContent = v.deadEnds ?? '';
  $('deadends').hidden = !v.deadEnds;
  $('coverage').textContent = v.coverage ?? '';
  $('coverage').hidden = !v.coverage;
  $('meter').replaceChildren(
    meter({ phase: v.phase, context: v.context, window: v.window, at: v.at, warnAt: v.warnAt }),
  );
  $('metertext').textContent =
    `gen ${v.generation}/${v.maxGenerations} · ${tokens(v.context)}/${tokens(v.window)} · handoff at ${tokens(v.at)}${v.note ? ` · ${v.note}` : ''}`;
  $('permission').hidden = waiting === null;
  $('permtext').textContent = waiting === null ? '' : `claude asks to run: ${waiting}`;
  for (const b of ['approve', 'deny', 'handoff', 'hold', 'release', 'end']) $(b).disabled = !allowInput;
  $('hold').hidden = v.phase !== 'review' || v.held;
  $('release').hidden = v.phase !== 'review' || !v.held;
  $('handoff').hidden = !(v.phase === 'working' || v.phase === 'near');
  const reviewing = v.phase === 'review' && allowInput;
  if (reviewing && $('editor').hidden) fillEditor();
  $('editor').hidden = !reviewing;
  // the document once: editable in the review, as text otherwise
  $('doc').hidden = reviewing;
}

// The edit box starts from the document as the page has it. A page opened during a review hears the
// review (its status) before the document: the box, filled from nothing and not typed in, takes the
// document when it comes.
let filledEmpty = false;
function fillEditor() {
  $('doctext').value = doc.text ?? '';
  filledEmpty = doc.text === null;
  editBase = doc.version;
  $('saveinfo').textContent = 'the successor starts from this text when the review ends';
  $('newer').hidden = true;
}

function showDocument() {
  $('docpath').textContent = doc.path ?? '';
  $('doc').textContent = doc.text ?? 'No handoff yet: the document appears here when the session writes it.';
}

function onMessage(m) {
  switch (m.t) {
    case 'hello':
      allowInput = m.allowInput;
      view = m.status;
      $('inputbar').hidden = !allowInput;
      $('actions').classList.toggle('readonly', !allowInput);
      if (!allowInput) say('read-only: this web face was started without --allow-input');
      showStatus();
      return;
    case 'screen':
      showSize(m.cols, m.rows);
      // a full reset (RIS) parsed with the screen: never a blank frame between the two
      term.write(`\u001bc${m.data}`, () => {
        fitFont();
        firstPaint();
      });
      return;
    case 'size':
      showSize(m.cols, m.rows);
      fitFont();
      return;
    case 'child':
      if (m.state === 'started' && childEnded) {
        term.reset();
        keyboard.reset();
      }
      childEnded = m.state === 'ended';
      return;
    case 'status':
      if (view && view.generation !== m.view.generation) loadLineage();
      view = m.view;
      showStatus();
      return;
    case 'document':
      doc = { path: m.path, text: m.text, version: m.version };
      showDocument();
      if (!$('editor').hidden && filledEmpty && $('doctext').value === '') fillEditor();
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
      say(
        m.reason === 'gone' || m.reason === 'refused' ? m.message : `the run ended${m.message ? `: ${m.message}` : ''}`,
      );
      $('state').textContent = 'ended';
      return;
  }
}

// The lineage so far, as the report reads it from the run's workbench: each generation, how it
// ended, its document (text); the whole report page is served live beside it.
// The status can name a new generation a moment before the workbench records it: a lineage that is
// behind the view is asked for again shortly (a few times, then it waits for the next change).
const LINEAGE_RETRY_MS = 1_000;
const LINEAGE_RETRIES = 15;
let lineageRetry = null;
async function loadLineage(retries = LINEAGE_RETRIES) {
  clearTimeout(lineageRetry);
  const box = $('lineage');
  let lineage;
  try {
    const res = await api(`/api/run/${encodeURIComponent(id)}/lineage`);
    if (!res.ok) return box.replaceChildren(el('p', { class: 'facts' }, (await res.text()).trim()));
    lineage = await res.json();
  } catch {
    return;
  }
  if (view && lineage.generations.length < view.generation && retries > 0)
    lineageRetry = setTimeout(() => loadLineage(retries - 1), LINEAGE_RETRY_MS);
  box.replaceChildren(
    ...lineage.generations.map((g) => {
      const item = el('details', { class: 'gen', 'data-gen': String(g.n) });
      item.append(
        el(
          'summary',
          {},
          `gen ${g.n} · ${g.endWords} · peak ${tokens(g.peak)}${g.startedAt ? ` · from ${g.startedAt.slice(11, 19)}` : ''}${g.endedAt ? ` to ${g.endedAt.slice(11, 19)}` : ''}`,
        ),
      );
      item.append(
        g.document ? el('pre', { class: 'doc' }, g.document.text) : el('p', { class: 'facts' }, 'no document (yet)'),
      );
      return item;
    }),
  );
}

showDocument();
fitFont();

// A socket that drops while the run lives (the web server restarted, a phone that slept, a frame the
// server refused) is opened again, a little later each time, with no `seq`: the page is repainted from
// the run's screen, whatever it missed meanwhile.
let retries = 0;
function connect(seq) {
  ws = openSocket(`/ws/run/${encodeURIComponent(id)}${seq !== null ? `?seq=${seq}` : ''}`, secret);
  ws.binaryType = 'arraybuffer';
  ws.addEventListener('open', () => {
    performance.mark('flower:socket-open');
    if (retries > 0) say('reconnected');
    retries = 0;
  });
  ws.addEventListener('message', (event) => {
    // the first screen parsed at once, not on xterm's timer (the path a key's echo takes, §3 of
    // docs/libraries.md): the first frame the browser draws after it has claude's screen in it
    if (!painted) term.input('', true);
    if (typeof event.data === 'string') onMessage(JSON.parse(event.data));
    else term.write(new Uint8Array(event.data));
  });
  ws.addEventListener('close', (event) => {
    if ($('state').textContent === 'ended') return;
    say(`disconnected${event.reason ? `: ${event.reason}` : ''}; reconnecting…`);
    setTimeout(() => connect(null), Math.min(30_000, 1000 * 2 ** retries++));
  });
}

// Keys typed on the terminal itself (a keyboard): xterm's onKey fires for keys only, never for
// the answers its emulator gives to claude's queries (those are the run server's to give: onData,
// which carries both, is never sent).
term.onKey(({ key }) => {
  if (allowInput) send({ t: 'input', data: key });
});
// shift+enter typed on the page: xterm.js would send CR (it knows no keyboard mode), so it is sent here
term.attachCustomKeyEventHandler((event) => {
  if (event.key !== 'Enter' || !event.shiftKey || event.ctrlKey || event.altKey || event.metaKey) return true;
  if (event.type === 'keydown' && allowInput) shiftEnter();
  return false;
});
for (const button of document.querySelectorAll('[data-key]')) {
  button.addEventListener('click', () =>
    button.dataset.key === 'shift-enter' ? shiftEnter() : send({ t: 'key', key: button.dataset.key }),
  );
}
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
  if (confirm(`End run ${id}? claude is ended cleanly; flower-pty --continue picks the lineage up later.`))
    send({ t: 'end' });
});
$('save').addEventListener('click', () => send({ t: 'save', text: $('doctext').value, version: editBase ?? '' }));
// The report needs the secret too: it is fetched with it and shown from this page's own memory (a blob
// URL of this origin, under this page's CSP), in a new tab.
$('report').addEventListener('click', async (event) => {
  event.preventDefault();
  const res = await api(`/api/run/${encodeURIComponent(id)}/report`);
  if (!res.ok) return say((await res.text()).trim());
  const url = URL.createObjectURL(new Blob([await res.text()], { type: 'text/html' }));
  window.open(url, '_blank');
  setTimeout(() => URL.revokeObjectURL(url), 60_000);
});
if (secret) connect(null);
else notLoggedIn();
