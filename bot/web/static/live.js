'use strict';
// Live pages (board, overlays, event screen). One EventSource per page; every message carries
// the whole model, which is rendered in place. Model strings only ever go through textContent:
// names and army lists come from users.

const PAGE = document.body.dataset.page; // 'board' | 'overlay' | 'event' | 'activity' (the board, signed in)
const params = new URLSearchParams(location.search);
const $ = (id) => document.getElementById(id);
let model = null; // last model received; the ticker counts clocks down from it between messages

/* ---- DOM helpers: write only when a value changes, so a new model never makes anything flicker ---- */

function setText(node, value) {
  if (!node) return;
  const text = value == null ? '' : String(value);
  if (node.textContent !== text) node.textContent = text;
}
function show(node, on) {
  if (node && node.hidden === !!on) node.hidden = !on;
}
const present = (v) => v != null && v !== '';
// Text that hides its element when empty, so null fields leave no blank boxes.
function field(node, value) {
  setText(node, value);
  show(node, present(value));
}
function flag(node, cls, on) {
  if (node && node.classList.contains(cls) !== !!on) node.classList.toggle(cls, !!on);
}
// The page's own game (or event): its stream, map and sheet are under this path.
const BASE = location.pathname.replace(/\/overlay\/[^/]+\/?$/, '').replace(/\/+$/, '');

// Setting src again would refetch the picture; only do it when the address changes. The model names pictures
// relative to BASE ("map.png"), as pages of one game opened through different links share one model.
function setSrc(img, url) {
  if (!img) return;
  if (present(url) && !url.startsWith('/')) url = `${BASE}/${url}`;
  show(img, present(url));
  if (present(url) && img.getAttribute('src') !== url) img.setAttribute('src', url);
}
function make(tag, cls, parent) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (parent) parent.appendChild(node);
  return node;
}
const f = (root, name) => (root ? root.querySelector(`[data-f="${name}"]`) : null);
// A labelled fact (<div data-row=x>label <dd data-f=x>) that disappears entirely when null.
function fact(root, name, value) {
  if (!root) return;
  field(f(root, name), value);
  show(root.querySelector(`[data-row="${name}"]`), present(value));
}
// Keep a list's children, reusing them by position: build() makes one, fill(node, item) updates it.
function syncList(box, items, build, fill) {
  if (!box) return;
  items = items || [];
  while (box.children.length > items.length) box.lastElementChild.remove();
  items.forEach((item, i) => fill(box.children[i] || box.appendChild(build()), item, i));
}
const textItem = () => make('li');
const fillText = (li, text) => setText(li, text);

// H:MM:SS for chess clocks; M:SS when short=true and under an hour (the event countdown).
function hms(ms, short = false) {
  const s = Math.max(0, Math.ceil(ms / 1000));
  const h = Math.floor(s / 3600);
  const mm = String(Math.floor(s / 60) % 60);
  const ss = String(s % 60).padStart(2, '0');
  return short && !h ? `${mm}:${ss}` : `${h}:${mm.padStart(2, '0')}:${ss}`;
}

/* ---- game: shared by the board page and the overlays ---- */

function renderPlayer(root, p, i, m) {
  if (!root) return;
  p = p || {};
  setText(f(root, 'name'), p.name || `Player ${i + 1}`);
  const army = [p.army, p.points ? `${p.points} pts` : null].filter(present).join(' · ');
  field(f(root, 'army'), army);
  setText(f(root, 'vp'), p.vp ?? 0);
  setText(f(root, 'cp'), p.cp ?? 0);
  fact(root, 'role', p.role);
  fact(root, 'primary', p.primary);
  const deck = p.deck != null ? `${p.deck} in deck` : null;
  fact(root, 'mode', p.mode ? [p.mode, deck].filter(present).join(' · ') : null);
  const theirTurn = m.status === 'battle' && m.active === i;
  flag(root, 'active', theirTurn);
  show(f(root, 'turn'), theirTurn);
  show(f(root, 'waiting'), !!p.waiting && m.status !== 'ended' && m.status !== 'abandoned');
  const won = !!m.result && m.result.winner === i;
  flag(root, 'winner', won);
  show(f(root, 'win'), won);
  const cards = p.cards || [];
  const box = f(root, 'cards');
  syncList(box, cards, buildCard, fillCard);
  // "No active cards" (CSS) only makes sense for players who play secondaries at all.
  show(box, cards.length > 0 || present(p.mode));
  flag(box, 'empty', cards.length === 0);
}
function buildCard() {
  const li = make('li', 'card');
  make('b', 'card-name', li);
  make('span', 'card-scoring', li);
  return li;
}
function fillCard(li, card) {
  setText(li.children[0], card.name);
  field(li.children[1], card.scoring);
}

function renderMission(root, mission) {
  if (!root) return;
  mission = mission || {};
  field(f(root, 'primary'), mission.primary);
  fact(root, 'deployment', mission.deployment);
  fact(root, 'twist', mission.twist);
  syncList(f(root, 'details'), mission.details, textItem, fillText);
  setSrc(f(root, 'map'), mission.map);
  // A game without a chosen mission yet (or a plain table game) gets no empty mission box.
  show(root, [mission.primary, mission.deployment, mission.twist, mission.map].some(present));
}

// remaining_ms is as of at_ms; the running side keeps counting down locally between messages.
function clockLeft(clock, i) {
  const left = (clock.remaining_ms || [])[i] ?? 0;
  return clock.running === i ? left - (Date.now() - clock.at_ms) : left;
}
function renderClock(m) {
  const box = $('clock');
  if (!box) return;
  const clock = m && m.kind === 'game' ? m.clock : null;
  show(box, !!clock);
  if (!clock) return;
  for (const side of box.querySelectorAll('[data-side]')) {
    const i = Number(side.dataset.side);
    const left = clockLeft(clock, i);
    setText(f(side, 'name'), m.players?.[i]?.name || `Player ${i + 1}`);
    setText(f(side, 'time'), hms(left));
    flag(side, 'running', clock.running === i);
    flag(side, 'low', left < 5 * 60e3);
    flag(side, 'expired', !!(clock.expired || [])[i] || left <= 0);
  }
}

function roundText(m) {
  if (m.status === 'ended') return 'Final';
  if (m.status === 'abandoned') return 'Abandoned';
  if (m.status === 'setup' || !m.round) return 'Setup';
  return `Round ${m.round}/${m.rounds ?? '?'}`;
}

// Both players' halves of a page come from one template: <div data-seat="0" data-from="template id">. An element
// inside marked data-id="vp" gets the id p0-vp (or p1-vp): the hooks the tests read.
function fillSeats(root) {
  for (const slot of root.querySelectorAll('[data-seat][data-from]')) {
    const i = slot.dataset.seat;
    const node = $(slot.dataset.from).content.firstElementChild.cloneNode(true);
    node.classList.add(`p${i}`);
    node.dataset.player = i;
    node.id = `p${i}`;
    for (const el of node.querySelectorAll('[data-id]')) el.id = `p${i}-${el.dataset.id}`;
    slot.replaceWith(node);
  }
}

function renderGame(m) {
  if (m.kind !== 'game') return;
  for (const root of document.querySelectorAll('[data-player]')) {
    const i = Number(root.dataset.player);
    renderPlayer(root, m.players?.[i], i, m);
  }
  for (const root of document.querySelectorAll('[data-mission]')) renderMission(root, m.mission);
  renderClock(m);
  setText(f(document, 'round'), roundText(m));
  const turn = m.status === 'battle' && m.turn ? `Turn ${m.turn}` : null;
  field(f(document, 'phase'), [turn, m.status === 'battle' ? m.phase : null].filter(present).join(' · '));
  flag(document.body, 'over', m.status === 'ended' || m.status === 'abandoned');
  if (PAGE !== 'board' && PAGE !== 'activity') return;

  setText($('title'), m.title || 'Live game');
  document.title = m.title || 'Live game';
  field($('status'), m.status_text);
  field($('replay'), m.replay);
  field($('result'), m.result && m.result.text);
  const waitingOn = m.status === 'ended' ? [] : m.waiting_on || [];
  syncList($('waiting-on'), waitingOn, textItem, fillText);
  show($('waiting-box'), waitingOn.length > 0);
  syncList($('recent'), m.recent, textItem, fillText);
  show($('recent-box'), (m.recent || []).length > 0);
  setSrc($('sheet'), m.sheet);
  show($('sheet-box'), present(m.sheet));
}

/* ---- overlays: the URL picks the kind, side, position, style, scale and background ---- */

const OVERLAY_POS = { scoreboard: 'top', clock: 'top', cards: 'left', mission: 'right', match: 'top' };
const pick = (value, allowed, fallback) => (allowed.includes(value) ? value : fallback);

function setupOverlay() {
  const kind = (location.pathname.match(/\/overlay\/([^/]+)/) || [])[1];
  const template = $(`t-${kind}`);
  const body = document.body;
  body.classList.add(`bg-${pick(params.get('bg'), ['transparent', 'solid'], 'transparent')}`);
  if (!template) return showGone('Unknown overlay kind.');
  const box = template.content.firstElementChild.cloneNode(true);
  fillSeats(box);
  $('ov').appendChild(box);
  body.classList.add(`ov-${kind}`,
    `pos-${pick(params.get('pos'), ['top', 'bottom', 'left', 'right'], OVERLAY_POS[kind])}`,
    `style-${pick(params.get('style'), ['dark', 'light', 'glass'], 'dark')}`);
  const scale = parseFloat(params.get('scale'));
  if (scale > 0 && scale !== 1) box.style.transform = `scale(${scale})`; // origin is set per pos in CSS
  const side = params.get('side');
  if (kind === 'cards') {
    // One player's cards: the test hooks carry that player's index.
    const i = side === '1' ? 1 : 0;
    box.dataset.player = String(i);
    box.classList.add(`p${i}`);
    f(box, 'name').id = `p${i}-name`;
    f(box, 'cards').id = `p${i}-cards`;
  } else if (kind === 'scoreboard' && (side === '0' || side === '1')) {
    box.querySelector(`[data-player="${1 - Number(side)}"]`).remove();
    box.classList.add('one-side');
  }
}

/* ---- event screen ---- */

const STATE_TEXT = { playing: 'Playing', done: 'Done', bye: 'Bye', waiting: 'Waiting' };

function buildPairing() {
  const li = make('li', 'row pairing');
  make('span', 'tbl', li);
  for (const side of ['a', 'vp', 'b', 'state']) make('span', side === 'a' || side === 'b' ? `pl ${side}` : side, li);
  for (const pl of li.querySelectorAll('.pl')) { make('b', 'nm', pl); make('small', 'ar', pl); }
  const vp = li.querySelector('.vp');
  make('b', '', vp); make('i', '', vp).textContent = '–'; make('b', '', vp);
  return li;
}
function fillPairing(li, p) {
  const [tbl, a, vp, b, state] = li.children;
  setText(tbl, p.table ?? '');
  const names = p.names || [], armies = p.armies || [], vps = p.vp || [];
  const bye = p.state === 'bye';
  [a, b].forEach((pl, i) => {
    setText(pl.children[0], names[i] || (bye && i === 1 ? 'Bye' : '—'));
    field(pl.children[1], armies[i]);
  });
  setText(vp.children[0], bye ? '' : vps[0] ?? '–');
  setText(vp.children[2], bye ? '' : vps[1] ?? '–');
  show(vp.children[1], !bye);
  // Who is ahead on VP shows at a glance from across the hall.
  flag(a, 'lead', !bye && vps[0] > vps[1]);
  flag(b, 'lead', !bye && vps[1] > vps[0]);
  // Minutes an organiser gave the table from a judge call: its round ends that much later than the clock's.
  const extra = p.extra_minutes ? `+${p.extra_minutes}′` : '';
  if ((tbl.dataset.extra || '') !== extra) {
    if (extra) tbl.dataset.extra = extra;
    else delete tbl.dataset.extra;
  }
  setText(state, STATE_TEXT[p.state] || p.state || '');
  state.className = `state s-${p.state || 'none'}`;
}
// Judge calls waiting: the table, how long it has waited (counted here between models) and who is on the way.
function buildCall() {
  const li = make('li', 'e-call');
  make('b', '', li); make('span', 'wait', li); make('span', 'who', li);
  return li;
}
function fillCall(li, c) {
  const [tbl, wait, who] = li.children;
  setText(tbl, `Table ${c.table}` + (model && c.round !== model.round ? ` (R${c.round})` : ''));
  wait.dataset.since = String(c.raised_ms);
  setText(wait, hms(Date.now() - c.raised_ms, true));
  setText(who, c.claimed_by ? `${c.claimed_by} on the way` : 'waiting for a judge');
  flag(li, 'claimed', !!c.claimed_by);
}
function renderJudges(m) {
  const judges = m.judges || { calls: [], on_duty: [] };
  show($('judges'), judges.calls.length > 0 || judges.on_duty.length > 0);
  syncList($('calls'), judges.calls, buildCall, fillCall);
  field($('duty'), judges.on_duty.length ? `On duty: ${judges.on_duty.join(', ')}` : null);
}
function tickJudges() {
  for (const wait of document.querySelectorAll('#calls .wait')) {
    setText(wait, hms(Date.now() - Number(wait.dataset.since), true));
  }
}
// A team match: its teams and score against the margin, the pairing step, what has been revealed, its games.
function buildMatch() {
  const li = make('li', 'e-match');
  const head = make('div', 'm-head', li);
  make('b', 'm-a', head); make('span', 'm-score', head); make('b', 'm-b', head);
  make('p', 'm-step', li);
  make('ul', 'm-revealed', li);
  make('ul', 'm-games', li);
  return li;
}
function fillMatch(li, x) {
  const [head, step, revealed, games] = li.children;
  const [a, score, b] = head.children;
  setText(a, x.teams[0]);
  setText(b, x.bye ? 'Bye' : x.teams[1]);
  const played = (x.games || []).some((g) => g.bp && g.bp[0] != null);
  setText(score, x.bye ? '' : played ? `${x.bp[0]} – ${x.bp[1]} BP` : 'vs');
  flag(a, 'lead', !!x.outcome && x.outcome === 'win');
  flag(b, 'lead', !!x.outcome && x.outcome === 'loss');
  const locked = x.locked || [];
  const who = x.bye ? '' : locked.some(Boolean) && !x.step.startsWith('Pairing')
    ? ` · ${x.teams.filter((_, i) => locked[i]).join(' and ')} locked in` : '';
  const margin = x.bye ? 'No match this round' : `${x.step}${who} · a win needs a lead of ${x.margin} of ${x.total}`;
  setText(step, margin);
  syncList(revealed, (x.revealed || []).slice(-4), () => make('li', ''), (row, r) => {
    setText(row, `${r.what}${r.forced ? ' (forced)' : ''}: ${r.picks.filter(Boolean).join(' · ')}`);
  });
  syncList(games, x.games || [], () => make('li', ''), (row, g) => {
    const vp = g.vp[0] == null ? '' : ` ${g.vp[0]}–${g.vp[1]}`;
    const bp = g.bp && g.bp[0] != null ? ` (${g.bp[0]}–${g.bp[1]} BP)` : '';
    setText(row, `T${g.table} ${g.names[0]} vs ${g.names[1]}${g.layout ? ` · ${g.layout}` : ''}${vp}${bp}`);
  });
}
function renderTeams(m) {
  const teams = m.teams || [];
  show($('teams'), teams.length > 0);
  syncList($('matches'), teams, buildMatch, fillMatch);
  if (m.teams) { // a team event's standings: teams, their record, Team Points and Battle Points
    const head = document.querySelector('.e-standings .e-cols');
    ['#', 'Team', 'W-L-D', 'TP', 'BP'].forEach((text, i) => setText(head.children[i], text));
  }
}
function buildStanding() {
  const li = make('li', 'row standing');
  make('span', 'rank', li);
  const pl = make('span', 'pl', li);
  make('b', 'nm', pl); make('small', 'ar', pl);
  for (const cls of ['rec', 'pts', 'vp']) make('span', cls, li);
  return li;
}
function fillStanding(li, s) {
  const [rank, pl, rec, pts, vp] = li.children;
  setText(rank, s.rank ?? '');
  setText(pl.children[0], s.name || '—');
  field(pl.children[1], s.army);
  setText(rec, s.record ?? '');
  setText(pts, s.opponents ?? '');
  setText(vp, s.vp ?? '');
  flag(li, 'top', s.rank === 1);
}

// A list longer than its panel shows one screenful at a time and turns the page every 12 s
// (a fade, never a scroll: jerky scrolling is unreadable on a projector).
const PAGE_MS = 12000;
const FADE_MS = 400;
class Pager {
  constructor(box, label) { Object.assign(this, { box, label, page: 0, pages: 1, per: 1 }); }
  layout() {
    const rows = [...this.box.children];
    if (rows.length) {
      // Rows have a fixed height in CSS; measure one (briefly unhidden: no paint happens in between).
      const first = rows[0], wasHidden = first.hidden;
      this.box.style.removeProperty('--row-h');
      first.hidden = false;
      const gap = parseFloat(getComputedStyle(this.box).rowGap) || 0;
      const rowH = first.getBoundingClientRect().height + gap;
      first.hidden = wasHidden;
      const room = this.box.clientHeight + gap;
      this.per = Math.max(1, Math.floor(room / rowH));
      // Stretch rows a little so a full page fills the panel instead of leaving a gap below.
      if (rows.length > this.per) this.box.style.setProperty('--row-h', `${room / this.per - gap}px`);
    }
    this.pages = Math.max(1, Math.ceil(rows.length / this.per));
    this.page = Math.min(this.page, this.pages - 1);
    rows.forEach((row, i) => show(row, Math.floor(i / this.per) === this.page));
    field(this.label, this.pages > 1 ? `page ${this.page + 1}/${this.pages}` : null);
  }
  turn() {
    if (this.pages < 2) return;
    flag(this.box, 'turning', true);
    setTimeout(() => {
      this.page = (this.page + 1) % this.pages;
      this.layout();
      flag(this.box, 'turning', false);
    }, FADE_MS);
  }
}
const pagers = [];

function renderEvent(m) {
  if (m.kind !== 'event') return;
  setText($('title'), m.name || 'Event');
  document.title = m.name || 'Event';
  field($('status'), m.status_text);
  field($('round'), m.round ? `Round ${m.round} of ${m.rounds ?? '?'}` : null);
  renderCountdown(m); // before paging: the header's height decides how many rows fit
  renderJudges(m); // so does the judges' strip
  renderTeams(m); // and the team matches'
  syncList($('pairings'), m.pairings, buildPairing, fillPairing);
  syncList($('standings'), m.standings, buildStanding, fillStanding);
  pagers.forEach((p) => p.layout());
  const at = m.updated_ms ? new Date(m.updated_ms) : null;
  setText($('updated'), at ? `Updated ${at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}` : '');
}
function renderCountdown(m) {
  const box = $('countdown-box');
  const end = m && m.kind === 'event' ? m.round_ends_at_ms : null;
  show(box, !!end);
  if (!box || !end) return;
  const left = end - Date.now();
  setText($('countdown'), left > 0 ? hms(left, true) : 'Time!');
  flag(box, 'low', left < 10 * 60e3);
  flag(box, 'over', left <= 0);
}

/* ---- connection ---- */

let source = null;
let gone = false;
let downSince = 0;
let retries = 0;

function showGone(message) {
  gone = true;
  if (source) source.close();
  field($('gone'), message || 'This live link is no longer available.');
  flag(document.body, 'is-gone', true);
}

const listeners = []; // the Activity's script, told of each model once it is drawn

// The team match overlay: one match of the event's round (?match=N), its score in Battle Points and its step.
function renderMatchOverlay(m) {
  const number = Number(params.get('match')) || 1;
  const x = (m.teams || []).find((t) => t.number === number);
  const box = $('ov').firstElementChild;
  if (!box || !x) return;
  setText(f(box, 'team-a'), x.teams[0]);
  setText(f(box, 'team-b'), x.teams[1]);
  setText(f(box, 'bp-a'), x.bp[0]);
  setText(f(box, 'bp-b'), x.bp[1]);
  setText(f(box, 'match'), `Round ${m.round} · match ${x.number}`);
  const verdict = x.outcome === 'win' ? `${x.teams[0]} wins` : x.outcome === 'loss' ? `${x.teams[1]} wins`
    : x.outcome === 'draw' ? 'A draw' : `${x.step} · a win needs +${x.margin}`;
  setText(f(box, 'step'), verdict);
}

function render(m) {
  try {
    if (PAGE === 'event') renderEvent(m);
    else if (m.kind === 'event') renderMatchOverlay(m);
    else renderGame(m);
    listeners.forEach((listen) => listen(m));
  } finally {
    // Tests wait on this attribute; set it even if a render bug threw, so failures show up as such.
    document.body.dataset.version = String(m.version);
  }
}

let streamUrl = `${BASE}/stream`;

function connect() {
  if (gone) return;
  source = new EventSource(streamUrl);
  source.addEventListener('model', (e) => {
    let m;
    try { m = JSON.parse(e.data); } catch { return; }
    retries = 0;
    model = m;
    render(m);
  });
  source.addEventListener('gone', (e) => {
    let message = null;
    try { message = JSON.parse(e.data).message; } catch { /* keep the default text */ }
    showGone(message);
  });
  source.addEventListener('error', () => {
    // EventSource retries dropped connections itself, but gives up for good on an HTTP error
    // (e.g. a proxy's 502 while the bot restarts). Overlays run for hours: retry, backing off.
    if (source.readyState === EventSource.CLOSED && !gone) {
      setTimeout(connect, Math.min(60e3, 2000 * 2 ** retries++));
    }
  });
}

// Runs 4x a second: local clock countdowns and the reconnect mark.
function tick() {
  if (model) {
    if (PAGE === 'event') { renderCountdown(model); tickJudges(); }
    else renderClock(model);
  }
  const up = gone || (source && source.readyState === EventSource.OPEN);
  if (up) downSince = 0;
  else if (!downSince) downSince = Date.now();
  // Wait a moment before showing the mark, so the first connect or a short blip does not flash it.
  show($('conn'), !up && Date.now() - downSince > 1500);
}

fillSeats(document);
if (PAGE === 'overlay') setupOverlay();
if (PAGE === 'event') {
  pagers.push(new Pager($('pairings'), $('pairings-page')), new Pager($('standings'), $('standings-page')));
  setInterval(() => pagers.forEach((p) => p.turn()), PAGE_MS);
  // Re-measure whenever a list's box changes size (window resize, header growing a countdown...).
  const observer = new ResizeObserver(() => pagers.forEach((p) => p.layout()));
  pagers.forEach((p) => observer.observe(p.box));
}
// The Activity signs in first (activity.js), then connects to its own stream.
window.MissionLive = {
  connect(url) {  // again after signing in anew: the old stream goes
    if (source) source.close();
    streamUrl = url;
    connect();
  },
  onModel(listen) { listeners.push(listen); },
};
if (PAGE !== 'activity') connect();
setInterval(tick, 250);
