'use strict';
// The organiser's desk (bot/web/desk.py): one EventSource brings the desk's whole model at every change; every
// action is a POST of JSON with the session's token, answered with one line (done, or why not). Model strings only
// ever go through textContent: names and clubs come from users.

const $ = (id) => document.getElementById(id);
const BODY = document.body.dataset;
const BASE = location.pathname.replace(/\/+$/, '');
let model = null;
let picked = null; // the first player pressed in the draft, waiting for the second
let lastSwap = null; // the draft's last swap, for Undo
let openForm = null; // the table whose result form is open

function el(tag, cls, parent, text) {
  const node = document.createElement(tag);
  if (cls) node.className = cls;
  if (text != null) node.textContent = String(text);
  if (parent) parent.appendChild(node);
  return node;
}
function button(parent, label, onClick, cls = 'd-btn') {
  const b = el('button', cls, parent, label);
  b.type = 'button';
  b.addEventListener('click', onClick);
  return b;
}
function input(parent, name, attrs = {}) {
  const i = el('input', 'd-input', parent);
  i.name = name;
  i.dataset.keep = `${parent.id || parent.dataset.key || ''}:${name}`;
  Object.assign(i, attrs);
  return i;
}
function show(node, on) { if (node && node.hidden === !!on) node.hidden = !on; }
function notice(text, bad = false) {
  const box = $('notice');
  box.textContent = text || '';
  box.classList.toggle('bad', bad);
  show(box, !!text);
}
function when(ms) { return ms ? new Date(ms).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' }) : ''; }

// ---- acting ------------------------------------------------------------------------------------------------

async function act(action, body = {}) {
  let answer;
  try {
    answer = await fetch(`${BASE}/api/act`, {
      method: 'POST', cache: 'no-store', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', 'X-Desk-Token': BODY.csrf || '' },
      body: JSON.stringify({ action, ...body }),
    });
  } catch {
    notice('The server cannot be reached: check your connection and try again.', true);
    return null;
  }
  let data = {};
  try { data = await answer.json(); } catch { /* an empty answer */ }
  if (answer.status === 409 && data.confirm) return { confirm: data.confirm };
  if (!answer.ok) {
    notice(data.error || `The server answered ${answer.status}: try again.`, true);
    return null;
  }
  notice(data.done || 'Done.');
  return data;
}

function draftKeys() {
  const r = model.round;
  return { number: r.number, draw: r.draw, digest: r.digest };
}

async function publish(confirmed = false) {
  const answer = await act('round.publish', { ...draftKeys(), confirm: confirmed });
  if (answer && answer.confirm) {
    const list = $('confirm-list');
    list.replaceChildren();
    for (const line of answer.confirm) el('li', '', list, line);
    $('confirm').showModal();
  }
}

// ---- rendering ---------------------------------------------------------------------------------------------

// A new model redraws the sections; what is being typed survives (inputs marked data-keep), and so does focus.
function keepTyping(draw) {
  const kept = {};
  for (const i of document.querySelectorAll('[data-keep]')) kept[i.dataset.keep] = i.value;
  const focused = document.activeElement && document.activeElement.dataset.keep;
  draw();
  for (const i of document.querySelectorAll('[data-keep]')) {
    if (i.dataset.keep in kept && i.type !== 'hidden') i.value = kept[i.dataset.keep];
    if (focused && i.dataset.keep === focused) i.focus();
  }
}

function render(m) {
  model = m;
  document.body.dataset.version = m.version;
  $('title').textContent = m.name;
  $('status').textContent = m.status_text;
  keepTyping(() => {
    renderTodo(m);
    renderRound(m);
    renderJudges(m);
    if (m.judges_only) return;
    renderTeams(m);
    renderRules(m);
    renderPlayers(m);
    renderCorrect(m);
    renderStandings(m);
    renderLog(m);
  });
}

function renderTodo(m) {
  const list = $('todo');
  list.replaceChildren();
  for (const line of m.todo || []) el('li', '', list, line);
  show($('todo-box'), (m.todo || []).length > 0);
}

function renderRound(m) {
  const r = m.round;
  show($('round-box'), !!r || !m.judges_only);
  const actions = $('round-actions');
  actions.replaceChildren();
  const body = $('tables').tBodies[0];
  body.replaceChildren();
  if (!r) {
    $('round-title').textContent = 'No round yet';
    $('round-state').textContent = '';
    if (!m.judges_only && m.status === 'active') button(actions, `Pair round ${m.rounds_paired + 1}`, () => act('round.pair'));
    show($('draft-help'), false);
    show($('bye'), false);
    return;
  }
  $('round-title').textContent = `Round ${r.number} of ${m.rounds_planned || '?'}`;
  $('round-state').textContent = r.published ? 'published' : `draft${r.problems ? ` · ${r.problems} to check` : ''}`;
  $('round-state').classList.toggle('warn', !r.published && r.problems > 0);
  $('round-time').textContent = r.ends_ms ? `ends ${when(r.ends_ms)}` : '';
  show($('draft-help'), !r.published);
  if (!m.judges_only) roundActions(m, r, actions);
  for (const t of r.tables) body.appendChild(tableRow(m, r, t));
  show($('bye'), !!r.bye);
  if (r.bye) $('bye').textContent = `Bye: ${r.bye.name}`;
}

function roundActions(m, r, actions) {
  if (!r.published) {
    button(actions, 'Publish', () => publish(false));
    button(actions, 'Re-pair', () => act('round.repair', { number: r.number, draw: r.draw }), 'd-btn quiet');
    if (lastSwap) {
      button(actions, 'Undo last swap', async () => {
        const undo = lastSwap;
        if (await act('draft.swap', { ...draftKeys(), a: undo[0], b: undo[1] })) lastSwap = null;
        render(model);
      }, 'd-btn quiet');
    }
    return;
  }
  const complete = r.tables.every((t) => t.state === 'confirmed');
  if (complete && m.rounds_paired < m.rounds_planned) button(actions, `Pair round ${r.number + 1}`, () => act('round.pair'));
  if (complete && m.rounds_paired >= m.rounds_planned) button(actions, 'Finish the event', () => act('finish'));
  button(actions, 'Announce again', () => act('round.announce'), 'd-btn quiet');
  if (!r.ends_ms) {
    const box = el('span', 'd-inline', actions);
    box.dataset.key = 'clock';
    const minutes = input(box, 'minutes', { type: 'number', min: 1, max: 600, value: 180, title: 'Minutes' });
    button(box, 'Start the clock', () => act('clock.start', { minutes: Number(minutes.value) }), 'd-btn quiet');
  }
}

function seat(m, r, t, p) {
  const cell = el('div', 'd-seat');
  const name = r.published ? el('span', 'd-name', cell, p.name) : button(cell, p.name, () => pick(p.id), 'd-player');
  if (!r.published && picked === p.id) name.classList.add('picked');
  const about = [p.faction, p.club, p.pinned ? `pinned to ${p.pinned}` : null].filter(Boolean).join(' · ');
  if (about) el('span', 'd-about', cell, about);
  if (!r.published) button(cell, 'Pin', () => pinTo(p, t.table), 'd-btn tiny quiet');
  return cell;
}

async function pick(player) {
  if (picked === null) {
    picked = player;
    render(model);
    return;
  }
  const first = picked;
  picked = null;
  if (first === player) { render(model); return; }
  if (await act('draft.swap', { ...draftKeys(), a: first, b: player })) lastSwap = [first, player];
  render(model); // the Undo button now, whether the new draft came before the answer or comes after
}

function pinTo(p, table) {
  const answer = prompt(`Pin ${p.name} to which table? (empty: unpin)`, p.pinned || table);
  if (answer === null) return;
  act('pin.set', { player: p.id, table: answer.trim() ? Number(answer) : null });
}

function tableRow(m, r, t) {
  const row = el('tr', `d-row state-${t.state.replace(' ', '-')}`);
  row.dataset.table = t.table;
  el('td', 'num', row, t.table);
  const players = el('td', 'd-players', row);
  players.appendChild(seat(m, r, t, t.players[0]));
  el('span', 'd-vs', players, 'vs');
  players.appendChild(seat(m, r, t, t.players[1]));
  for (const p of t.problems || []) el('div', `d-problem ${p.kind}`, players, p.message);
  const state = el('td', 'd-state', row);
  el('span', 'd-tag', state, stateText(t));
  if (t.call) el('div', 'd-problem call', state, `Judge call ${t.call.claimed_by ? `(${t.call.claimed_by} on the way)` : 'waiting'}`);
  el('td', 'num', row, t.ends_ms ? when(t.ends_ms) + (t.extra_minutes ? ` (+${t.extra_minutes}′)` : '') : (t.extra_minutes ? `+${t.extra_minutes}′` : ''));
  const tools = el('td', 'd-tools', row);
  if (m.judges_only) return row;
  if (!r.published) {
    const box = el('span', 'd-inline', tools);
    box.dataset.key = `move-${t.table}`;
    const to = input(box, 'to', { type: 'number', min: 1, max: r.tables.length, placeholder: '#', title: 'Move to table' });
    button(box, 'Move', () => act('draft.move', { ...draftKeys(), table: t.table, to: Number(to.value) }), 'd-btn tiny quiet');
    return row;
  }
  button(tools, t.state === 'confirmed' ? 'Correct' : 'Enter result', () => { openForm = openForm === t.table ? null : t.table; render(model); }, 'd-btn tiny');
  button(tools, '+5 min', () => act('table.minutes', { table: t.table, minutes: 5 }), 'd-btn tiny quiet');
  if (openForm === t.table) tools.appendChild(resultForm(t, null));
  return row;
}

function stateText(t) {
  const vp = t.vp ? ` ${t.vp[0]}–${t.vp[1]}` : '';
  switch (t.state) {
    case 'draft': return 'draft';
    case 'playing': return `battle round ${t.battle_round}:${vp}`;
    case 'reported': return `reported${vp}, waiting on ${t.waiting_on}`;
    case 'confirmed': return `confirmed${vp}${t.how ? ` (${t.how})` : ''}`;
    case 'ended': return `ended without a result${vp}`;
    default: return t.state;
  }
}

function resultForm(t, round) {
  const form = el('div', 'd-inline d-result');
  form.dataset.key = `result-${round || 'now'}-${t.table}`;
  const a = input(form, 'vp_a', { type: 'number', min: 0, max: 100, placeholder: t.players[0].name, title: `${t.players[0].name}'s VP` });
  const b = input(form, 'vp_b', { type: 'number', min: 0, max: 100, placeholder: t.players[1].name, title: `${t.players[1].name}'s VP` });
  const reason = el('select', 'd-input', form);
  reason.dataset.keep = `${form.dataset.key}:reason`;
  for (const [value, label] of [['score', 'by the VP'], ['concession', 'concession'], ['no_show', 'no-show']]) {
    const o = el('option', '', reason, label);
    o.value = value;
  }
  const outcome = el('select', 'd-input', form);
  outcome.dataset.keep = `${form.dataset.key}:outcome`;
  for (const [value, label] of [['', '(winner: by the VP)'], ['a_wins', `${t.players[0].name} wins`], ['b_wins', `${t.players[1].name} wins`]]) {
    const o = el('option', '', outcome, label);
    o.value = value;
  }
  button(form, 'Save', async () => {
    const done = await act('result.enter', {
      table: t.table, vp_a: Number(a.value), vp_b: Number(b.value), reason: reason.value, outcome: outcome.value || null,
      ...(round ? { round } : {}),
    });
    if (done) { openForm = null; render(model); }
  });
  return form;
}

function renderTeams(m) {
  show($('teams-box'), !!m.rosters);
  if (!m.rosters) return;
  const late = $('late');
  late.replaceChildren();
  for (const match of m.late || []) {
    const li = el('li', 'd-call', late);
    el('b', '', li, `Match ${match.match}`);
    el('span', '', li, ` is past its step's deadline: ${match.waiting.join(' and ')} still to choose.`);
    button(li, 'Choose at random for the late side', () => act('team.late', { round: match.round, match: match.match, step: match.step }), 'd-btn tiny');
  }
  const matches = $('matches');
  matches.replaceChildren();
  for (const x of m.teams || []) {
    if (x.bye) { el('li', 'd-help', matches, `${x.teams[0]} has the bye.`); continue; }
    const li = el('li', '', matches);
    el('b', '', li, `Match ${x.number}: ${x.teams[0]} ${x.bp[0]} – ${x.bp[1]} ${x.teams[1]}`);
    const verdict = x.outcome === 'win' ? `${x.teams[0]} wins` : x.outcome === 'loss' ? `${x.teams[1]} wins` : x.outcome === 'draw' ? 'a draw' : x.step;
    el('span', 'd-about', li, ` · ${verdict} (a win needs a lead of ${x.margin})`);
  }
  const rosters = $('rosters');
  rosters.replaceChildren();
  for (const t of m.rosters) {
    const li = el('li', t.dropped ? 'dropped' : '', rosters);
    el('b', '', li, t.name);
    el('span', 'd-about', li, ` · captain ${t.captain}: ${t.players.join(', ')}`);
  }
}

function renderRules(m) {
  const box = $('rules');
  box.replaceChildren();
  show($('rules-box'), m.status === 'active' && !m.team_event);
  const fire = el('select', 'd-input', box);
  fire.id = 'rule-fire';
  for (const [value, label] of [['off', 'Friendly fire: off'], ['first', 'Friendly fire: round 1'], ['every', 'Friendly fire: every round']]) {
    const o = el('option', '', fire, label);
    o.value = value;
    o.selected = m.rules.friendly_fire === value;
  }
  const label = el('label', 'd-check', box);
  const fresh = el('input', '', label);
  fresh.type = 'checkbox';
  fresh.id = 'rule-fresh';
  fresh.checked = m.rules.fresh_tables;
  el('span', '', label, 'Fresh tables');
  button(box, 'Save rules', () => act('rules.set', { friendly_fire: fire.value, fresh_tables: fresh.checked }), 'd-btn quiet');
  el('p', 'd-help', box, 'Rematches are always avoided. Friendly fire keeps players of one club apart; fresh tables keep each player off a table they played at before; pins are set on the players below. Each holds while the field allows, and applies to the rounds paired from now on.');
}

function renderJudges(m) {
  const j = m.judges;
  show($('judges-box'), true);
  $('duty').textContent = j.on_duty.length ? `On duty: ${j.on_duty.join(', ')}` : 'Nobody on duty: calls notify the judge role.';
  const list = $('calls');
  list.replaceChildren();
  if (!j.calls.length) el('li', 'd-help', list, 'No call is waiting.');
  for (const c of j.calls) {
    const li = el('li', 'd-call', list);
    li.dataset.key = `call-${c.id}`;
    el('b', '', li, `Table ${c.table}`);
    el('span', '', li, ` (round ${c.round}) ${c.players.join(' vs ')}, called by ${c.caller} at ${when(c.raised_ms)}`);
    if (c.note) el('span', 'd-about', li, ` · ${c.note}`);
    if (!c.claimed_by) {
      button(li, 'Claim', () => act('call.claim', { call: c.id }), 'd-btn tiny');
    } else {
      el('span', 'd-tag', li, `${c.claimed_by} on the way`);
      const ruling = input(li, 'ruling', { placeholder: 'Ruling (optional)', maxLength: 1000 });
      button(li, 'Resolved', () => act('call.resolve', { call: c.id, ruling: ruling.value }), 'd-btn tiny');
    }
  }
}

function renderPlayers(m) {
  show($('players-box'), true);
  const actions = $('checkin-actions');
  actions.replaceChildren();
  const c = m.checkin;
  if (!m.rounds_paired && m.status === 'active') {
    if (!c.open) button(actions, 'Open check-in', () => act('checkin.open'), 'd-btn quiet');
    else {
      el('span', 'd-tag', actions, `Checked in: ${c.in} of ${c.of}`);
      const absent = c.absent.map((p) => p.name).join(', ');
      button(actions, `Close check-in${c.absent.length ? ` (drops ${c.absent.length})` : ''}`, () => {
        if (!c.absent.length || confirm(`Close check-in and drop those not checked in: ${absent}?`)) act('checkin.close', { digest: c.digest });
      });
    }
  }
  const add = $('add-player');
  add.replaceChildren();
  if (m.status === 'active' && !m.team_event) {
    const query = input(add, 'query', { placeholder: 'Add a late entrant: their name in the server', maxLength: 100 });
    const found = el('span', 'd-inline', add);
    found.id = 'found';
    button(add, 'Search', async () => {
      found.replaceChildren();
      const answer = await fetch(`${BASE}/api/members?query=${encodeURIComponent(query.value)}`, { credentials: 'same-origin' });
      const data = answer.ok ? await answer.json() : { members: [] };
      if (!data.members.length) el('span', 'd-help', found, 'Nobody by that name.');
      for (const person of data.members) {
        if (person.registered) el('span', 'd-about', found, `${person.name} (registered)`);
        else button(found, `Add ${person.name}`, () => act('player.add', { user: person.id }), 'd-btn tiny');
      }
    }, 'd-btn quiet');
  }
  const body = $('players').tBodies[0];
  body.replaceChildren();
  for (const p of m.players) {
    const row = el('tr', p.dropped ? 'dropped' : '', body);
    row.dataset.player = p.id;
    el('td', '', row, p.name + (c.open && p.checked_in ? ' ✓' : ''));
    el('td', '', row, p.faction || '');
    const club = el('td', '', row);
    club.dataset.key = `club-${p.id}`;
    const clubInput = input(club, 'club', { value: p.club || '', placeholder: 'club', maxLength: 60 });
    button(club, 'Set', () => act('player.club', { player: p.id, club: clubInput.value }), 'd-btn tiny quiet');
    el('td', 'num', row, p.pinned || '');
    const list = el('td', '', row);
    for (const l of p.lists) {  // a doubles pair has one a player, each named
      const label = l.flags ? `${l.flags} to check` : 'list';
      const link = el('a', 'd-listlink', list, l.of !== p.name ? `${l.of}: ${label}` : label);
      link.href = `${BASE}/list/${l.id}`;
      link.target = '_blank';
    }
    const tools = el('td', 'd-tools', row);
    if (m.status !== 'active') continue;
    if (p.dropped) button(tools, 'Reinstate', () => act('player.reinstate', { player: p.id }), 'd-btn tiny quiet');
    else button(tools, 'Drop', () => { if (confirm(`Drop ${p.name}? They keep their results.`)) act('player.drop', { player: p.id }); }, 'd-btn tiny quiet');
    button(tools, 'Pin', () => pinTo(p, p.pinned || 1), 'd-btn tiny quiet');
  }
}

function renderCorrect(m) {
  const box = $('correct');
  box.replaceChildren();
  const earlier = m.rounds_paired > 1 || (m.round && m.round.published && m.rounds_paired >= 1);
  show($('correct-box'), !!earlier);
  if (!earlier) return;
  const round = input(box, 'round', { type: 'number', min: 1, max: m.rounds_paired, placeholder: 'round' });
  const table = input(box, 'table', { type: 'number', min: 1, placeholder: 'table' });
  const a = input(box, 'vp_a', { type: 'number', min: 0, max: 100, placeholder: 'VP of A' });
  const b = input(box, 'vp_b', { type: 'number', min: 0, max: 100, placeholder: 'VP of B' });
  button(box, 'Correct', () => act('result.enter', { round: Number(round.value), table: Number(table.value), vp_a: Number(a.value), vp_b: Number(b.value) }), 'd-btn quiet');
}

function renderStandings(m) {
  show($('standings-box'), true);
  const exports = $('exports');
  exports.replaceChildren();
  for (const name of ['standings', 'results', ...(m.team_event ? ['teams', 'team-games'] : []), 'calls']) {
    const link = el('a', 'd-btn quiet', exports, `${name}.csv`);
    link.href = `${BASE}/export/${name}`;
    link.setAttribute('download', '');
  }
  const body = $('standings').tBodies[0];
  body.replaceChildren();
  for (const s of m.standings || []) {
    const row = el('tr', s.dropped ? 'dropped' : '', body);
    el('td', 'num', row, s.rank);
    el('td', '', row, s.name + (s.army ? ` · ${s.army}` : ''));
    el('td', 'num', row, s.record);
    el('td', 'num', row, s.opponents);
    el('td', 'num', row, s.vp);
  }
}

function renderLog(m) {
  show($('log-box'), (m.log || []).length > 0);
  const list = $('log');
  list.replaceChildren();
  for (const e of m.log || []) el('li', '', list, `${when(e.at_ms)} · ${e.by}: ${e.detail}`);
}

// ---- the stream --------------------------------------------------------------------------------------------

function connect() {
  const source = new EventSource(`${BASE}/api/stream`);
  source.addEventListener('model', (e) => { show($('conn'), false); render(JSON.parse(e.data)); });
  source.addEventListener('gone', (e) => {
    source.close();
    $('gone').textContent = JSON.parse(e.data).message;
    show($('gone'), true);
  });
  source.onerror = () => show($('conn'), source.readyState !== EventSource.OPEN);
}

$('confirm-yes').addEventListener('click', () => { $('confirm').close(); publish(true); });
$('confirm-no').addEventListener('click', () => $('confirm').close());
$('signout').addEventListener('click', async () => {
  await fetch('/desk/signout', { method: 'POST', credentials: 'same-origin', headers: { 'X-Desk-Token': BODY.csrf || '' } });
  location.reload();
});
document.addEventListener('keydown', (e) => { if (e.key === 'Escape' && picked) { picked = null; render(model); } });

$('who').textContent = BODY.name ? `${BODY.name}${BODY.standing === 'judge' ? ' (judge)' : ''}` : '';
if (BODY.refused) {
  $('refused').textContent = BODY.refused;
  show($('refused'), true);
  document.body.dataset.version = 'refused';
} else {
  connect();
}
