// The Discord Activity's page script, bundled with Discord's Embedded App SDK into bot/web/static/activity.js
// (scripts/activity/build.sh). live.js renders the game into the board markup; this script signs the user in
// (Discord says who, and the Activity instance says which call), connects live.js to the call's game, and draws
// the user's own part in #you: who they are, the controls the Discord board offers them, their menus and forms,
// and their private lines. With no game in the call, it offers to start one (#lobby).
//
// Discord's proxy serves the page: every URL here is relative to it. Server strings only go through textContent.

import { DiscordSDK, DiscordSDKMock } from '@discord/embedded-app-sdk';

const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
const REFRESH_EARLY_MS = 5 * 60e3; // sign in again this long before the session expires

let sdk = null;
let clientId = null;
let session = null; // {session, user: {id, name}, expires_at_ms}
let model = null; // the last model from the stream
let menu = null; // the open menu: {verb, game, version, data}
let busy = false; // a request of #you is under way: its buttons wait
let refreshing = null;
let lobbyTimer = null;
let ownLines = { version: -1, lines: [] }; // the private lines of the user's last move, from its answer

/* ---- small DOM helpers ---- */

function make(tag, cls, parent, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}
function show(node, on) {
  if (node && node.hidden === !!on) node.hidden = !on;
}
function setText(node, text) {
  text = text == null ? '' : String(text);
  if (node && node.textContent !== text) node.textContent = text;
}
// The bot writes Discord markdown in its texts: **bold** and `code` become elements, the rest stays text.
function rich(node, text) {
  node.replaceChildren();
  for (const part of String(text ?? '').split(/(\*\*[^*]+\*\*|`[^`]+`)/)) {
    if (!part) continue;
    if (part.startsWith('**') && part.endsWith('**') && part.length > 4) make('b', '', node, part.slice(2, -2));
    else if (part.startsWith('`') && part.endsWith('`') && part.length > 2) make('code', '', node, part.slice(1, -1));
    else node.appendChild(document.createTextNode(part));
  }
  return node;
}

/* ---- the server ---- */

class ApiError extends Error {
  constructor(message, status) {
    super(message);
    this.status = status;
  }
}

async function api(path, body) {
  let answer;
  try {
    answer = await fetch(path, body === undefined ? { cache: 'no-store' } : {
      method: 'POST', cache: 'no-store', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError('The server cannot be reached: check your connection and try again.', 0);
  }
  let data = null;
  try { data = await answer.json(); } catch { /* an error page that is not JSON */ }
  if (!answer.ok) {
    throw new ApiError((data && data.error) || `The server answered ${answer.status}: try again in a moment.`,
      answer.status);
  }
  return data || {};
}

/* ---- signing in ---- */

const signin = {
  text: () => $('signin-text'),
  say(text) {
    show($('signin'), true);
    setText(this.text(), text);
  },
  fail(message, { retry = true } = {}) {
    show($('signin'), true);
    document.body.classList.add('signin-failed');
    setText($('signin-error'), message);
    show($('signin-error'), true);
    show($('signin-retry'), retry);
  },
  clear() {
    document.body.classList.remove('signin-failed');
    show($('signin-error'), false);
    show($('signin-retry'), false);
  },
};

function makeSdk(id) {
  if (params.has('frame_id')) return new DiscordSDK(id);
  // Outside Discord (a plain browser: local development, tests) the SDK's mock stands in, signing in with
  // ?mock_code= in the Activity instance ?instance= (which the server asks Discord about, as in a real call).
  const mock = new DiscordSDKMock(id, null, params.get('channel'), null);
  mock._updateCommandMocks({ authorize: async () => ({ code: params.get('mock_code') || 'mock' }) });
  return mock;
}
function instanceId() {
  return params.has('frame_id') ? sdk.instanceId : params.get('instance') || sdk.instanceId;
}

async function authorize() {
  try {
    const { code } = await sdk.commands.authorize({
      client_id: clientId, response_type: 'code', state: '', prompt: 'none', scope: ['identify'],
    });
    return code;
  } catch (exc) {
    throw new ApiError(`Discord did not sign you in${exc && exc.message ? `: ${exc.message}` : '.'}`, 0);
  }
}

async function newSession() {
  const code = await authorize();
  // The server asks Discord for this instance: its call's channel is the one game the session sees.
  const answer = await api('api/session', { code, instance: instanceId() });
  if (!answer.session || !answer.user) throw new ApiError('The server did not sign you in: try again.', 0);
  session = answer;
  document.body.dataset.signedIn = String(answer.user.id);
  scheduleRefresh();
}

function streamUrl() {
  return `api/stream?session=${encodeURIComponent(session.session)}`;
}

// The stream's first answer tells whether the channel has a game: an EventSource would hide the 404 and its
// message, so ask once with fetch (and let go at once) before live.js connects.
async function checkStream() {
  const stop = new AbortController();
  let answer;
  try {
    answer = await fetch(streamUrl(), { cache: 'no-store', signal: stop.signal,
      headers: { Accept: 'text/event-stream' } });
  } catch {
    throw new ApiError('The server cannot be reached: check your connection and try again.', 0);
  }
  if (answer.ok) {
    stop.abort();
    return;
  }
  let data = null;
  try { data = await answer.json(); } catch { /* not JSON */ }
  throw new ApiError((data && data.error) || `The server answered ${answer.status}: try again in a moment.`,
    answer.status);
}

let connected = false;
async function start() {
  signin.clear();
  signin.say('Signing in with Discord…');
  try {
    if (!sdk) {
      ({ client_id: clientId } = await api('api/config'));
      if (!clientId) throw new ApiError('The server has no Discord application set up for the Activity.', 0);
      sdk = makeSdk(clientId);
    }
    await sdk.ready();
    if (!instanceId()) {
      throw new ApiError('Open this Activity from a voice channel: it shows the game of that channel.', 0);
    }
    if (!session) await newSession();
    signin.say('Opening the game…');
    await checkStream();
  } catch (exc) {
    if (exc.status === 404 && session) return openLobby();
    signin.fail(exc.message || 'Signing in failed.');
    return;
  }
  closeLobby();
  if (!window.MissionLive) {
    signin.fail('The page did not load completely: reload the Activity.');
    return;
  }
  if (!connected) {
    connected = true;
    window.MissionLive.onModel(onModel);
  }
  window.MissionLive.connect(streamUrl());
}

// Sessions expire (an hour): sign in again quietly before that, so the buttons and the stream's reconnects keep
// working through a long game.
function scheduleRefresh() {
  clearTimeout(scheduleRefresh.timer);
  const at = Number(session && session.expires_at_ms);
  if (!at) return;
  scheduleRefresh.timer = setTimeout(() => {
    refreshSession().catch(() => { /* the next request says so if it matters */ });
  }, Math.max(10e3, at - Date.now() - REFRESH_EARLY_MS));
}
function refreshSession() {
  if (!refreshing) {
    refreshing = newSession().then(() => {
      if (connected) window.MissionLive.connect(streamUrl());
    }).finally(() => { refreshing = null; });
  }
  return refreshing;
}
async function liveSession() {
  if (refreshing) await refreshing;
  else if (session && Date.now() > Number(session.expires_at_ms) - 30e3) await refreshSession();
  return session.session;
}

/* ---- #you: the user's own part ---- */

// Once the game on screen is over, the next one in the call (a challenge from the other page, or from the chat)
// takes its place by itself.
let nextTimer = null;
function watchForNext(over) {
  if (!over) {
    clearInterval(nextTimer);
    nextTimer = null;
  } else if (!nextTimer) {
    nextTimer = setInterval(() => {
      if (!lobbyTimer) refreshLobby().catch(() => {});
    }, 3000);
  }
}

function onModel(m) {
  if (!m || m.kind !== 'game') return;
  const first = !model;
  model = m;
  watchForNext(m.status === 'ended' || m.status === 'abandoned');
  if (first) show($('signin'), false);
  renderYou(m);
  if (menu) followMenu(m);
}

function renderYou(m) {
  const you = m.you || { seat: null, private: [], controls: [] };
  const seat = you.seat === 0 || you.seat === 1 ? you.seat : null;
  const box = $('you');
  const seatText = seat == null ? 'watch' : String(seat);
  if (box.dataset.seat !== seatText) box.dataset.seat = seatText;
  const name = you.name || (session && session.user.name) || '';
  const player = seat == null ? null : (m.players || [])[seat];
  setText($('you-name'), name ? `Signed in as ${name}` : 'You');
  setText($('you-role'), seat == null ? 'You are watching'
    : `You play ${player && player.name ? player.name : `Player ${seat + 1}`}`);
  const over = m.status === 'ended' || m.status === 'abandoned';
  const controls = seat == null ? [] : you.controls || [];
  renderControls(controls);
  setText($('you-idle'), seat == null ? 'Only the two players can play: the board follows the game live.'
    : over ? 'The game is over.' : 'Nothing to do right now: the buttons appear when it is your move.');
  show($('you-idle'), controls.length === 0);
  const lines = [...(you.private || [])];
  if (ownLines.version === m.version) lines.push(...ownLines.lines.filter((line) => !lines.includes(line)));
  const list = $('you-private');
  while (list.children.length > lines.length) list.lastElementChild.remove();
  lines.forEach((line, i) => {
    const li = list.children[i] || make('li', '', list);
    if (li.dataset.text !== line) {
      li.dataset.text = line;
      rich(li, line);
    }
  });
  show($('you-private-box'), lines.length > 0);
}

// Rebuild the buttons only when the controls change, so a new model does not steal a button's focus.
function renderControls(controls) {
  const box = $('you-controls');
  const key = JSON.stringify(controls.map((c) => [c.verb, c.label, c.kind]));
  if (box.dataset.key !== key) {
    box.dataset.key = key;
    box.replaceChildren();
    for (const control of controls) {
      const opens = control.kind === 'menu' || control.kind === 'form';
      const button = make('button', opens ? 'control has-menu' : 'control', box, control.label || control.verb);
      button.type = 'button';
      button.dataset.verb = control.verb;
      button.disabled = busy;
      if (opens) button.setAttribute('aria-haspopup', 'dialog');
      button.addEventListener('click', () => (control.kind === 'menu' ? openMenu(control.verb)
        : control.kind === 'form' ? openForm(control.verb)
          : control.kind === 'lobby' ? openLobby() : act(control.verb)));
    }
  }
  show(box, controls.length > 0);
  markControls();
}
function markControls() {
  for (const button of $('you-controls').children) {
    const open = !!menu && menu.verb === button.dataset.verb;
    button.classList.toggle('open', open);
    if (button.classList.contains('has-menu')) button.setAttribute('aria-expanded', String(open));
  }
}

function setBusy(on) {
  busy = on;
  $('you').classList.toggle('busy', on);
  $('you').setAttribute('aria-busy', String(on));
  for (const button of $('you').querySelectorAll('button')) {
    if (on) button.disabled = true;
    else button.disabled = button.dataset.off === 'true';
  }
}
function showError(message) {
  setText($('you-error'), message);
  show($('you-error'), !!message);
}

async function request(work) {
  if (busy || !model) return;
  showError(null);
  setBusy(true);
  try {
    await work();
  } catch (exc) {
    showError(exc.message || 'That did not work: try again.');
  } finally {
    setBusy(false);
  }
}

// A control without a menu: the move at once, at the version on screen.
function act(verb) {
  return request(async () => {
    const answer = await post('api/act', { game: model.game, version: model.version, verb });
    closeMenu();
    if (answer.form) showForm(verb, { game: model.game, version: model.version }, answer.form);
  });
}

async function post(path, body) {
  let answer;
  try {
    answer = await api(path, { session: await liveSession(), ...body });
  } catch (exc) {
    if (exc.status !== 401 || !session) throw exc;
    await refreshSession(); // the session ran out (or the server restarted): sign in again, once
    answer = await api(path, { session: session.session, ...body });
  }
  if (answer.private) { // a move's lines for this user alone, shown with the model of the version it made
    ownLines = { version: answer.version, lines: answer.private };
    if (model && model.version === answer.version) renderYou(model);
  }
  return answer;
}

/* ---- menus: a small sheet inside #you ---- */

function openMenu(verb) {
  if (menu && menu.verb === verb) return closeMenu(); // the button toggles its menu
  return request(async () => {
    const game = model.game, version = model.version;
    const data = await post('api/menu', { game, version, verb });
    menu = { verb, game, version, data };
    drawMenu();
  });
}

function closeMenu() {
  menu = null;
  $('menu-box').replaceChildren();
  markControls();
}

// The game moved on while the menu was open: its choices are stale (the server refuses a move at an old
// version, as the Discord board does). Ask for it again, keeping what was ticked; close it if it is gone.
let following = null;
function followMenu(m) {
  if (menu.form) return; // a form stays until sent or closed: the server refuses one the game has left behind
  if (menu.game !== m.game || !((m.you && m.you.controls) || []).some((c) => c.verb === menu.verb)) {
    return closeMenu();
  }
  if (menu.version === m.version || following) return;
  const wanted = menu;
  following = post('api/menu', { game: m.game, version: m.version, verb: wanted.verb }).then((data) => {
    if (menu !== wanted) return;
    const ticked = [...$('menu-box').querySelectorAll('input:checked')].map((i) => `${i.name}\n${i.value}`);
    menu = { ...wanted, version: m.version, data };
    drawMenu(new Set(ticked));
  }, (exc) => {
    if (menu !== wanted) return;
    closeMenu();
    showError(exc.message);
  }).finally(() => {
    following = null;
    if (menu && model && menu.version !== model.version) followMenu(model);
  });
}

function drawMenu(ticked = null) {
  const holder = $('menu-box');
  const { data, verb } = menu;
  const sheet = make('div', 'menu');
  sheet.id = 'menu';
  sheet.setAttribute('role', 'group');
  const label = ($(`you-controls`).querySelector(`[data-verb="${CSS.escape(verb)}"]`) || {}).textContent || verb;
  sheet.setAttribute('aria-label', label);
  const head = make('div', 'menu-head', sheet);
  make('h4', 'menu-title', head, label);
  const close = make('button', 'menu-close', head, '×');
  close.type = 'button';
  close.title = 'Close';
  close.setAttribute('aria-label', 'Close the menu');
  close.addEventListener('click', () => { showError(null); closeMenu(); });
  if (data.content) rich(make('p', 'menu-content', sheet), data.content);

  let row = null; // buttons side by side
  let firstConfirm = true;
  for (const item of data.items || []) {
    if (item.kind === 'select') {
      row = null;
      drawSelect(sheet, item, firstConfirm, ticked);
      firstConfirm = false;
    } else if (item.kind === 'button') {
      row = row || make('div', 'menu-buttons', sheet);
      const button = make('button', 'control', row, item.label || item.verb);
      button.type = 'button';
      button.dataset.verb = item.verb;
      button.addEventListener('click', () => menuAct(item.verb));
    }
  }
  holder.replaceChildren(sheet);
  markControls();
  if (!ticked) sheet.scrollIntoView({ block: 'nearest' });
}

function drawSelect(sheet, item, first, ticked) {
  const options = item.options || [];
  const max = Math.max(1, Math.min(Number(item.max ?? 1), options.length || 1));
  const min = Math.max(0, Math.min(Number(item.min ?? 1), max));
  const multi = max > 1;
  const box = make('fieldset', 'menu-select', sheet);
  box.dataset.select = item.verb;
  if (item.placeholder) make('legend', '', box, item.placeholder);
  const list = make('div', 'options', box);
  const name = `menu-${item.verb}`;
  for (const option of options) {
    const row = make('label', 'option', list);
    const input = make('input', '', row);
    input.type = multi ? 'checkbox' : 'radio';
    input.name = name;
    input.value = option.value;
    input.checked = ticked ? ticked.has(`${name}\n${option.value}`) : !!option.default;
    const text = make('span', 'option-text', row);
    make('span', 'option-label', text, option.label);
    if (option.description) make('small', 'option-desc', text, option.description);
  }
  const foot = make('div', 'menu-foot', box);
  const count = make('span', 'menu-count', foot);
  const confirm = make('button', 'confirm', foot, 'Confirm');
  confirm.type = 'button';
  confirm.dataset.select = item.verb;
  if (first) confirm.id = 'menu-confirm';
  const inputs = [...list.querySelectorAll('input')];
  const update = () => {
    const n = inputs.filter((i) => i.checked).length;
    const ok = n >= min && n <= max;
    confirm.dataset.off = String(!ok);
    confirm.disabled = busy || !ok;
    // Once the most are ticked, the others wait (as in Discord's menus).
    if (multi) for (const i of inputs) i.disabled = !i.checked && n >= max;
    setText(count, multi ? `${n} of ${min === max ? max : `${min}–${max}`} chosen` : '');
  };
  list.addEventListener('change', update);
  update();
  confirm.addEventListener('click', () => {
    const values = inputs.filter((i) => i.checked).map((i) => i.value);
    menuAct(item.verb, values);
  });
}

// A menu's move is made at the version the menu was drawn for; a choice that asks for more (a Codex objective's
// name, an objective's VP) answers with its form first.
function menuAct(verb, values) {
  const { game, version } = menu;
  return request(async () => {
    const answer = await post('api/act', values === undefined ? { game, version, verb } : { game, version, verb, values });
    closeMenu();
    if (answer.form) showForm(verb, { game, version, values }, answer.form);
  });
}

/* ---- forms: Set army, Name units, and what a menu choice asks; drawn where menus are ---- */

function openForm(verb) {
  if (menu && menu.verb === verb) return closeMenu();
  return request(async () => {
    const game = model.game, version = model.version;
    showForm(verb, { game, version }, await post('api/form', { game, version, verb }));
  });
}

function showForm(verb, at, spec) {
  menu = { verb, game: at.game, version: at.version, form: true };
  const sheet = make('form', 'menu form');
  sheet.id = 'menu';
  sheet.noValidate = true;
  const head = make('div', 'menu-head', sheet);
  make('h4', 'menu-title', head, spec.title);
  const close = make('button', 'menu-close', head, '×');
  close.type = 'button';
  close.title = 'Close';
  close.setAttribute('aria-label', 'Close the form');
  close.addEventListener('click', () => { showError(null); closeMenu(); });
  const inputs = [];
  for (const field of spec.fields || []) {
    const row = make('label', 'field', sheet);
    const optional = field.required || /optional/i.test(field.label) ? '' : ' (optional)';
    make('span', 'field-label', row, field.label + optional);
    const input = make(field.paragraph ? 'textarea' : 'input', '', row);
    if (!field.paragraph) input.type = 'text';
    else input.rows = 6;
    input.name = field.id;
    input.maxLength = field.max_length;
    input.placeholder = field.placeholder || '';
    input.required = !!field.required;
    inputs.push(input);
  }
  let file = null;
  if (spec.file) {
    const row = make('label', 'field', sheet);
    make('span', 'field-label', row, 'Or a list file (the app\'s export, a NewRecruit .rosz)');
    file = make('input', '', row);
    file.type = 'file';
    file.name = 'file';
    file.accept = '.txt,.rosz,.ros,.json,text/plain';
  }
  const foot = make('div', 'menu-foot', sheet);
  const send = make('button', 'confirm', foot, 'Send');
  send.type = 'submit';
  send.id = 'form-send';
  sheet.addEventListener('submit', (event) => {
    event.preventDefault();
    const missing = inputs.find((i) => i.required && !i.value.trim());
    if (missing) {
      showError(`Fill in ${missing.previousElementSibling.textContent}.`);
      missing.focus();
      return;
    }
    const typed = Object.fromEntries(inputs.map((i) => [i.name, i.value]));
    request(async () => {
      const body = { game: at.game, version: at.version, verb, typed };
      if (at.values) body.values = at.values;
      if (file && file.files[0]) body.file = await readFile(file.files[0]);
      await post('api/act', body);
      closeMenu();
    });
  });
  $('menu-box').replaceChildren(sheet);
  markControls();
  sheet.scrollIntoView({ block: 'nearest' });
  if (inputs[0]) inputs[0].focus();
}

// A chosen file as the server takes it: its name and its bytes in base64.
function readFile(chosen) {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve({ name: chosen.name, data: String(reader.result).split(',', 2)[1] || '' });
    reader.onerror = () => reject(new ApiError('That file could not be read: choose it again.', 0));
    reader.readAsDataURL(chosen);
  });
}

/* ---- the lobby: no game in the call yet, so start one ---- */

async function openLobby() {
  show($('signin'), false);
  show($('lobby'), true);
  show($('lobby-back'), !!model); // opened over a finished game: its result stays a press away
  await refreshLobby();
  clearInterval(lobbyTimer);
  lobbyTimer = setInterval(() => refreshLobby().catch(() => {}), 3000);
}
function closeLobby() {
  clearInterval(lobbyTimer);
  lobbyTimer = null;
  show($('lobby'), false);
}

// Who is at the table in this call, and whether a game has started (a challenge to you, from here or the chat).
async function refreshLobby() {
  const lobby = await post('api/lobby', {});
  if (lobby.game && (!model || lobby.game !== model.game)) {
    closeLobby();
    return start();
  }
  fillSelect($('lobby-opponent'), lobby.people.map((p) => [p.id, p.name]));
  fillSelect($('lobby-pack'), lobby.packs.map((p) => [p.id, p.title]));
  fillSelect($('lobby-size'), lobby.sizes.map((p) => [p.id, p.title]));
  const alone = lobby.people.length === 0;
  show($('lobby-alone'), alone);
  show($('lobby-form'), !alone && lobby.can_start);
  show($('lobby-chat'), !lobby.can_start);
}
function fillSelect(select, pairs) {
  const key = JSON.stringify(pairs);
  if (select.dataset.key === key) return;
  const kept = select.value;
  select.dataset.key = key;
  select.replaceChildren(...pairs.map(([value, label]) => {
    const option = make('option', '', null, label);
    option.value = value;
    return option;
  }));
  if (pairs.some(([value]) => value === kept)) select.value = kept;
}
$('lobby-back').addEventListener('click', () => closeLobby());
$('lobby-form').addEventListener('submit', async (event) => {
  event.preventDefault();
  const send = $('lobby-send');
  send.disabled = true;
  setText($('lobby-error'), '');
  try {
    await post('api/new', { opponent: $('lobby-opponent').value, pack: $('lobby-pack').value,
      size: $('lobby-size').value });
    closeLobby();
    await start();
  } catch (exc) {
    setText($('lobby-error'), exc.message);
    show($('lobby-error'), true);
  } finally {
    send.disabled = false;
  }
});

/* ---- start ---- */

$('signin-retry').addEventListener('click', () => start());
start();
