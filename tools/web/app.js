/*
 * app.js - the web client of `mentat serve`: the lobby, the seat's page,
 * the spectator's and the referee's. Plain JavaScript, no build step.
 *
 * It shows only what the server sent for this page's token (the server
 * sends only engine_view of the token's seat): the board is the server's
 * SVG of that view, the seats and the log are the view's JSON and the log
 * lines as this seat was told them. The prompt is a form built from the
 * view's legal families: a person picks a family and sets each ranged
 * number; every other argument is the family's own example value, so a
 * person never types JSON. The replay slider shows any version as this
 * seat saw it then.
 *
 * A room this page creates (room.html?create=1, from the lobby) binds its
 * human seat to an Ed25519 key made here by WebCrypto: the private key is
 * not extractable and lives only in this page's memory, and every action
 * is sent with its signature of the server's seat message. Without
 * WebCrypto Ed25519 the room is created unbound; a page that joins an
 * existing unbound seat sends no signature.
 */
'use strict';

const params = new URLSearchParams(location.search);
let room = params.get('room') || '';
let token = params.get('token') || '';
const creating = document.body.dataset.mode !== 'lobby' && params.get('create') === '1';
/* lobby, or for room.html: play (a seat's token), watch (none) or referee. */
const mode = document.body.dataset.mode === 'lobby' ? 'lobby'
  : params.get('mode') === 'referee' ? 'referee' : token !== '' || creating ? 'play' : 'watch';
/* The seat's Ed25519 key pair when this page bound its seat, else null. */
let seatKey = null;
let refereeSeat = params.get('seat') || '';

const page = {
  head: null,       /* the latest view (from the push stream) */
  shown: null,      /* the version shown: null = follow the head */
  log: [],          /* log lines, in order */
  lastLogVersion: 0,
};

function hex(bytes) { return Array.from(new Uint8Array(bytes), b => b.toString(16).padStart(2, '0')).join(''); }

function unhex(s) { return new Uint8Array(s.match(/../g).map(h => parseInt(h, 16))); }

function $(id) { return document.getElementById(id); }

function text(el, s) { el.textContent = s; return el; }

function make(tag, s) { const el = document.createElement(tag); if (s !== undefined) text(el, s); return el; }

/* The query of a viewer request: the referee's seat choice. */
function viewerQuery(extra) {
  const q = new URLSearchParams(extra || {});
  if (mode === 'referee' && refereeSeat !== '') q.set('seat', refereeSeat);
  return q.toString();
}

async function api(method, path, body) {
  const headers = {};
  if (token !== '') headers.Authorization = 'Bearer ' + token;
  if (body !== undefined) headers['Content-Type'] = 'application/json';
  const r = await fetch(path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
  const t = await r.text();
  let json = null;
  try { json = JSON.parse(t); } catch (e) { json = null; }
  return { status: r.status, json, text: t };
}

/* ------------------------------------------------------------ rendering */

function cardText(c) { return '#' + c.card + ' ' + (c.kind === null ? '?' : c.kind); }

function seatLine(s) {
  const parts = [s.faction + ': spice ' + s.spice, 'reserves ' + s.reserves, 'tanks ' + s.tanks];
  parts.push('hand: ' + (s.hand_cards.length === 0 ? 'none' : s.hand_cards.map(cardText).join(', ')));
  if (s.traitors === null) parts.push('traitors: ?');
  else parts.push(s.traitors.length === 0 ? 'no traitor' : s.traitors.map(t => 'traitor ' + t).join(', '));
  if (s.ally !== null) parts.push('ally seat ' + s.ally);
  return parts.join('; ');
}

function renderSeats(v) {
  const box = $('seats');
  box.replaceChildren();
  const table = make('table');
  for (const s of v.seats) {
    const tr = make('tr');
    tr.dataset.seat = s.seat;
    tr.appendChild(make('td', 'seat ' + s.seat + (v.awaiting.includes(s.seat) ? ' (to act)' : '')));
    tr.appendChild(make('td', seatLine(s)));
    table.appendChild(tr);
  }
  box.appendChild(table);
}

function renderMe(v) {
  const me = $('me');
  me.replaceChildren();
  if (v.viewer === null) {
    $('me-section').hidden = true;
    return;
  }
  $('me-section').hidden = false;
  const s = v.seats[v.viewer - 1];
  text($('me-title'), 'You: seat ' + s.seat + ' ' + s.faction);
  me.appendChild(make('p', 'spice ' + s.spice + ', reserves ' + s.reserves + ', tanks ' + s.tanks));
  me.appendChild(make('p', 'hand: ' + (s.hand_cards.length === 0 ? 'none' : s.hand_cards.map(cardText).join(', '))));
  me.appendChild(make('p', s.traitors === null || s.traitors.length === 0 ? 'no traitor' :
    s.traitors.map(t => 'traitor ' + t).join(', ')));
  if (v.prediction !== null) me.appendChild(make('p', 'prediction: ' + v.prediction.faction + ' turn ' + v.prediction.turn));
}

/* A family as words: "ship: to arrakeen, forces 1..5". */
function familyLabel(f) {
  const args = f.args.map(a => {
    const lo = a.lo_name !== undefined ? a.lo_name : String(a.lo);
    const hi = a.hi_name !== undefined ? a.hi_name : String(a.hi);
    return a.name + ' ' + (a.lo === a.hi ? lo : lo + '..' + hi);
  });
  const caps = (f.caps || []).map(c => ' (' + c.args.join(' + ') + ' at most ' + c.max + ')').join('');
  return f.kind + (args.length ? ': ' + args.join(', ') : '') + (f.sum !== null ? ' (total ' + f.sum + ')' : '') + caps;
}

function renderPrompt(v) {
  const form = $('prompt');
  const section = $('prompt-section');
  form.replaceChildren();
  form.dataset.version = String(v.version);
  const asked = v.legal !== null && v.legal.length > 0 && page.shown === null;
  section.hidden = mode !== 'play';
  if (!asked) {
    form.appendChild(make('p', v.phase === 'game_over' ? 'The game is over.' : 'Nothing to decide now.'));
    form.dataset.ready = v.phase === 'game_over' ? 'over' : 'waiting';
    return;
  }
  const kinds = [...new Set(v.legal.map(f => f.kind))];
  const kindSel = make('select');
  kindSel.id = 'kind';
  for (const k of kinds) { const o = make('option', k); o.value = k; kindSel.appendChild(o); }
  const famSel = make('select');
  famSel.id = 'family';
  const argsBox = make('div');
  function fillFamilies() {
    famSel.replaceChildren();
    v.legal.forEach((f, i) => {
      if (f.kind !== kindSel.value) return;
      const o = make('option', familyLabel(f));
      o.value = String(i);
      famSel.appendChild(o);
    });
    fillArgs();
  }
  function fillArgs() {
    argsBox.replaceChildren();
    const f = v.legal[Number(famSel.value)];
    for (const a of f.args) {
      if (a.lo_name !== undefined || a.lo === a.hi) continue;
      const label = make('label', a.name + ' ');
      const input = make('input');
      input.type = 'number';
      input.min = a.lo;
      input.max = a.hi;
      input.value = f.example[a.name];
      input.name = a.name;
      label.appendChild(input);
      argsBox.appendChild(label);
    }
    if (f.sum !== null) argsBox.appendChild(make('p', 'The numbers must add up to ' + f.sum + '.'));
    /* An Advanced battle plan's limits: forces present, spice for support. */
    for (const c of f.caps || [])
      argsBox.appendChild(make('p', c.args.join(' + ') + ' may add up to ' + c.max + ' at most.'));
  }
  kindSel.addEventListener('change', fillFamilies);
  famSel.addEventListener('change', fillArgs);
  const l1 = make('label', 'Action ');
  l1.appendChild(kindSel);
  const l2 = make('label', 'Choice ');
  l2.appendChild(famSel);
  const button = make('button', 'Submit');
  button.type = 'submit';
  button.id = 'submit';
  form.append(l1, l2, argsBox, button);
  fillFamilies();
  form.dataset.ready = 'asked';
  form.onsubmit = async ev => {
    ev.preventDefault();
    const f = v.legal[Number(famSel.value)];
    const action = Object.assign({}, f.example);
    for (const input of argsBox.querySelectorAll('input')) action[input.name] = Number(input.value);
    form.dataset.ready = 'sent';
    const body = { version: v.version, action };
    if (seatKey !== null) {
      const m = await api('POST', '/api/rooms/' + room + '/seat_message', body);
      if (m.status === 200) {
        const sig = await crypto.subtle.sign({ name: 'Ed25519' }, seatKey.privateKey, unhex(m.json.message));
        body.seat_sig = hex(sig);
      }
    }
    const r = await api('POST', '/api/rooms/' + room + '/actions', body);
    if (r.status === 200) text($('status'), 'Done: version ' + r.json.version + '.');
    else if (r.status === 409) text($('status'), 'Someone acted first; the board has moved.');
    else text($('status'), 'Refused: ' + (r.json && (r.json.verdict || r.json.error)));
    if (r.status !== 200) form.dataset.ready = 'asked';
  };
}

function renderLog() {
  const ol = $('log');
  ol.replaceChildren();
  const upto = page.shown === null ? Infinity : page.shown;
  for (const line of page.log) {
    if (line.version > upto) continue;
    const li = make('li', line.version + '. ' + line.text);
    ol.appendChild(li);
  }
  ol.scrollTop = ol.scrollHeight;
}

async function renderBoard(version) {
  const q = viewerQuery(version === null ? {} : { at: version });
  const r = await api('GET', '/api/rooms/' + room + '/board.svg?' + q);
  if (r.status === 200) $('board').innerHTML = r.text.replace(/^<\?xml[^>]*>\s*/, '');
}

async function render(v) {
  text($('title'), 'room ' + v.room + ', version ' + v.version + (page.shown !== null ? ' (replay)' : ''));
  text($('phase'), 'turn ' + v.turn + ', ' + v.phase + (v.winners.length ? ', won by seat ' + v.winners.join(', ') : ''));
  renderMe(v);
  renderSeats(v);
  renderPrompt(v);
  renderLog();
  const slider = $('slider');
  slider.max = String(page.head.version);
  if (page.shown === null) slider.value = slider.max;
  text($('replay-label'), page.shown === null ? 'following the game' : 'version ' + page.shown + ' as this seat saw it');
  await renderBoard(page.shown);
  document.body.dataset.version = String(v.version);
}

/* ------------------------------------------------------------ the game */

/* An event carries the whole view, or only the members that changed
 * since the view of version `base` (docs/API.md, "The push stream"). */
function applyUpdate(data) {
  if (data.view) return data.view;
  if (!page.head || page.head.version !== data.base) return null;
  const v = Object.assign({}, page.head, data.set);
  for (const k of data.unset) delete v[k];
  return v;
}

function onUpdate(data) {
  const v = applyUpdate(data);
  if (v === null) { reconnect(); return; }
  page.head = v;
  window.mentatHead = v;
  for (const line of data.log) {
    if (line.version > page.lastLogVersion) {
      page.log.push(line);
      page.lastLogVersion = line.version;
    }
  }
  if (page.shown === null) render(page.head);
}

/* room.html?create=1&faction=F&turns=N&level=L: create the room with
 * seat 1 for this page and bots in seats 2 to 6, bind seat 1 to a key
 * made here if WebCrypto has Ed25519, join it, and play. */
async function createRoom() {
  const all = ['atreides', 'bene_gesserit', 'emperor', 'fremen', 'harkonnen', 'guild'];
  const mine = params.get('faction') || 'atreides';
  const factions = [mine].concat(all.filter(f => f !== mine));
  const bots = {};
  for (let s = 2; s <= 6; s++) bots[String(s)] = params.get('level') || 'medium';
  const body = { factions, rules: 'basic', turns: Number(params.get('turns') || '10'), bots };
  try {
    seatKey = await crypto.subtle.generateKey({ name: 'Ed25519' }, false, ['sign', 'verify']);
    body.seat_keys = { 1: hex(await crypto.subtle.exportKey('raw', seatKey.publicKey)) };
    text($('sign-note'), 'Your actions are signed with a key held only by this page.');
  } catch (e) {
    seatKey = null;
    text($('sign-note'), 'This browser has no WebCrypto Ed25519: the seat plays unsigned.');
  }
  const r = await api('POST', '/api/rooms', body);
  if (r.status !== 201) { text($('title'), 'Refused: ' + (r.json ? r.json.error : r.status)); return false; }
  const j = await api('POST', '/api/rooms/' + r.json.room + '/join', { seat: 1 });
  if (j.status !== 200) { text($('title'), 'Cannot join: ' + (j.json ? j.json.error : j.status)); return false; }
  room = j.json.room;
  token = j.json.token;
  history.replaceState(null, '', 'room.html?room=' + room + '&token=' + token);
  return true;
}

async function startGame() {
  if (creating && !(await createRoom())) return;
  if (mode !== 'referee') $('referee-section').hidden = true;
  const log = await api('GET', '/api/rooms/' + room + '/log?' + viewerQuery());
  if (log.status === 200) {
    page.log = log.json;
    page.lastLogVersion = log.json.length ? log.json[log.json.length - 1].version : 0;
  }
  const first = await api('GET', '/api/rooms/' + room + '/view?' + viewerQuery());
  if (first.status !== 200) {
    text($('title'), 'cannot open room ' + room + ': ' + (first.json ? first.json.error : first.status));
    return;
  }
  page.head = first.json;
  window.mentatHead = page.head;
  if (mode === 'play' && seatKey === null && page.head.viewer !== null) {
    const info = await api('GET', '/api/rooms/' + room);
    if (info.status === 200 && info.json.seats[page.head.viewer - 1].bound)
      text($('sign-note'), 'This seat is bound to a key that only the page that created the room held: it cannot act here.');
  }
  if (mode === 'referee') {
    const sel = $('seat-select');
    for (const s of first.json.seats) {
      const o = make('option', 'seat ' + s.seat + ' ' + s.faction);
      o.value = String(s.seat);
      sel.appendChild(o);
    }
    sel.value = refereeSeat;
    sel.addEventListener('change', () => {
      const q = new URLSearchParams(location.search);
      q.set('seat', sel.value);
      location.search = q.toString();
    });
  }
  await render(page.head);
  $('slider').addEventListener('input', async ev => {
    const v = Number(ev.target.value);
    page.shown = v >= page.head.version ? null : v;
    if (page.shown === null) { render(page.head); return; }
    const r = await api('GET', '/api/rooms/' + room + '/view?' + viewerQuery({ at: v }));
    if (r.status === 200) render(r.json);
  });
  subscribe();
}

/* The push stream, resuming after the last version this page holds. The
 * browser reconnects by itself (with Last-Event-ID); its first event then
 * carries the whole view again. */
function subscribe() {
  const q = new URLSearchParams({ last: String(page.lastLogVersion) });
  if (token !== '') q.set('token', token);
  if (mode === 'referee' && refereeSeat !== '') q.set('seat', refereeSeat);
  page.events = new EventSource('/api/rooms/' + room + '/events?' + q.toString());
  page.events.addEventListener('update', ev => onUpdate(JSON.parse(ev.data)));
}

/* A change against a view this page does not hold (it cannot happen on
 * one connection; a guard all the same): start the stream afresh. */
function reconnect() {
  if (page.events) page.events.close();
  subscribe();
}

/* ------------------------------------------------------------ the lobby */

function startLobby() {
  /* The room page creates the room, so that the seat's key stays in the
   * memory of the page that signs with it. */
  $('create').onsubmit = ev => {
    ev.preventDefault();
    const q = new URLSearchParams({ create: '1', faction: $('faction').value, turns: $('turns').value, level: $('level').value });
    location.href = 'room.html?' + q.toString();
  };
  $('open').onsubmit = ev => {
    ev.preventDefault();
    location.href = 'room.html?room=' + encodeURIComponent($('room').value.trim().toUpperCase());
  };
}

if (mode === 'lobby') startLobby();
else startGame();
