// The phone view: follows the table's stream; with the host token (from the #token= link, kept in
// localStorage, never in a URL the server sees) it also shows the host controls, drawn from the
// rule set's host actions (GET /api/rules: referee/host_actions.py), never typed JSON.
"use strict";

const TABLE = document.body.dataset.table;
const $ = id => document.getElementById(id);
let state = null, lastCount = -1, lastVerdictKey = null;
let rulesInfo = {};                 // rule set id -> its description (host_actions, phases)
let hostWired = false;
let tray = [], pickColor = null, multi = false, whoTouched = 0;
let tapSeq = 0;                     // the latest tap; older answers never overwrite a newer one
let knownVersion;                   // the table's version: from the stream, or from an answer that came first
let actionsKey = null;              // which actions are drawn now
const touched = {};                 // input element id -> when the host last changed it

// -- the token: out of the address bar into localStorage, at once ------------------------------------
const fromLink = HostToken.takeFromHash();
const token = () => HostToken.get();

// -- rendering ---------------------------------------------------------------------------------------
function render(s) {
  state = s;
  if (typeof s.version === "number" && !(knownVersion > s.version)) knownVersion = s.version;
  const players = s.players || [];
  $("rules").textContent = s.rules || "no game yet";
  $("turn").textContent = turnWords(s);
  $("pending").innerHTML = s.pending_draw ? `<span class="pending">+${s.pending_draw} to draw</span>` : "";
  $("color").innerHTML = Cards.colorBadge(s.active_color);
  const cw = s.direction === "clockwise";
  $("direction").innerHTML = `<span class="arrow">${cw ? "↻" : "↺"}</span> ${cw ? "clockwise" : "counter-clockwise"}`;
  $("waiting").textContent = s.waiting_for ? `waiting for ${s.waiting_for}` : "";

  Cards.showTop($("pile"), s.top_card);

  $("players").innerHTML = players.map((p, i) => {
    const cls = [i === s.current_player && s.winner === null ? "current" : "", p.out ? "out" : ""].join(" ");
    const coins = p.coins !== null && p.coins !== undefined ? `<span class="coins">● ${p.coins}</span>` : "";
    const score = p.score !== null && p.score !== undefined ? `<span class="tag">${p.score} pts</span>` : "";
    const tags = (i === s.dealer ? `<span class="tag">dealer</span>` : "") +
                 (p.hand_count === 1 ? `<span class="tag one">1 card!</span>` : "") +
                 (i === s.winner ? `<span class="tag one">winner</span>` : "") + (p.out ? `<span class="tag">out</span>` : "");
    return `<li class="${cls}" data-seat="${i}"><span class="name" title="${escapeHtml(p.name)}">${i === s.current_player ? "▶ " : ""}${escapeHtml(p.name)}</span>` +
           `${tags}${score}${coins}<span class="count" title="cards in hand"><i></i>${p.hand_count}</span></li>`;
  }).join("");
  $("cup").innerHTML = s.cup !== null && s.cup !== undefined ? `<div class="cup">cup: <b>${s.cup}</b> coins</div>` : "";

  $("log").innerHTML = (s.log || []).slice().reverse().map(e =>
    `<li><span class="n">${e.n}</span><span>${escapeHtml(e.summary)}</span></li>`).join("");

  const v = s.last_verdict, box = $("verdict");
  if (!v) {
    box.className = "verdict"; box.textContent = s.phase === "setup" ? "Waiting for the game to be set up." : "";
  } else if (!v.accepted) {
    box.className = "verdict rejected";
    box.innerHTML = `<span class="tag">NOT ALLOWED</span>${v.player ? `<b class="who">${escapeHtml(v.player)}:</b> ` : ""}${escapeHtml(v.reason)}`;
  } else {
    box.className = "verdict";
    box.textContent = v.reason;
  }
  const key = v ? `${v.index}:${v.accepted}` : null;
  if (key !== lastVerdictKey && lastVerdictKey !== null && v) speak(v.accepted ? v.reason : `Not allowed. ${v.player ? v.player + ": " : ""}${v.reason}`);
  lastVerdictKey = key;
  renderWhoPlayed(s.who_played || []);
  renderReveal(s.reveal_reading || null, players);
  if (s.event_count !== lastCount) refreshTimeline();
  lastCount = s.event_count;
  if (hostWired) renderHost(s);
}

// -- "who played the red 7?": the camera was unsure whose hand brought a card (docs/api.md, Seats) ---
let whoKey = null;
function renderWhoPlayed(questions) {
  const box = $("who-played");
  const key = JSON.stringify(questions.map(q => q.id)) + (token() ? "host" : "");
  if (key === whoKey) return;              // redraw only when the questions change (keeps a tap's target)
  whoKey = key;
  box.hidden = questions.length === 0;
  box.innerHTML = questions.map(q => {
    const buttons = q.likely.map((name, i) =>
      `<button type="button" class="${i === 0 ? "primary" : ""}" data-question="${q.id}" data-player="${escapeHtml(name)}">${escapeHtml(name)}</button>`).join("") +
      `<button type="button" data-question="${q.id}" data-player="">nobody: not a play</button>`;
    const wait = q.waiting ? `<p class="help">${q.waiting} later play${q.waiting > 1 ? "s wait" : " waits"} for this answer.</p>` : "";
    return `<div class="question" data-question-box="${q.id}"><p><b>${escapeHtml(q.text)}</b> <span class="why">(the camera is not sure: ${escapeHtml(q.why)})</span></p>` +
      (token() ? `<div class="row">${buttons}</div>` : `<p class="help">The host answers on their phone; nothing is charged until then.</p>`) + wait + `</div>`;
  }).join("");
  if (questions.length && key !== null) speak(questions[0].text);
}

$("who-played").addEventListener("click", async e => {
  const b = e.target.closest("button[data-question]");
  if (!b) return;
  const player = b.dataset.player || null;
  const what = player ? `${player} played it` : "nobody played it";
  toast("pending", `${what} …`);
  let r, body = {};
  try {
    r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/who-played`, {
      method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token()}`},
      body: JSON.stringify({question: Number(b.dataset.question), player})});
    body = await r.json().catch(() => ({}));
  } catch (err) { toast("bad", "the server cannot be reached; nothing changed"); return; }
  if (!r.ok) { toast("bad", `${body.error || r.statusText} (${r.status})`); return; }
  const v = (body.verdicts || [])[0];
  if (!v) toast("ok", "✓ dropped: nobody played it");
  else if (v.accepted) toast("ok", `✓ ${v.reason}`);
  else toast("bad", "", `✗ <b class="who">${escapeHtml(v.player || player)}</b>: not allowed: ${escapeHtml(v.reason)}`);
});

// -- "read a hand": the camera reads a hand laid out under it; the table confirms the list ---------------
let revealKey = null;
function renderReveal(r, players) {
  const who = $("reveal-who");
  const names = players.map(p => p.name).join(",");
  if (who.dataset.names !== names) {
    who.dataset.names = names;
    who.innerHTML = players.map((p, i) => `<option value="${i}">${escapeHtml(p.name)}</option>`).join("");
  }
  $("reveal-row").hidden = !!r;
  const box = $("reveal");
  const key = JSON.stringify(r) + (token() ? "host" : "");
  if (key === revealKey) return;           // keep what the host is typing
  revealKey = key;
  box.hidden = !r;
  if (!r) { box.innerHTML = ""; return; }
  const read = r.reading;
  const chips = read ? read.cards.map(c =>
    `<span class="chip${c.sure ? "" : " unsure"}" title="${escapeHtml(c.problem || "")}">${escapeHtml(c.card)}${c.sure ? "" : " ?"}</span>`).join("") : "";
  const problems = read && read.problems.length ? `<p class="why">Check: ${read.problems.map(escapeHtml).join("; ")}.</p>` : "";
  const controls = token() ? `<div class="row"><input id="reveal-cards" aria-label="the cards shown" ` +
      `value="${escapeHtml(read ? read.cards.map(c => c.card).join(", ") : "")}">` +
      `<button class="primary" id="reveal-confirm" type="button">Confirm this hand</button>` +
      `<button id="reveal-cancel" type="button">Stop reading</button></div>` : "";
  box.innerHTML = `<p><b>Reading ${escapeHtml(r.player)}'s hand:</b> lay the cards out side by side under the camera.</p>` +
    (read ? `<p class="chips">${chips || "no card seen yet"}</p>${problems}` : `<p class="help">waiting for the camera…</p>`) + controls;
}

// When the rules wait for a hand to be shown (a +4 challenge, a round's scoring), the camera row
// names whose hand and picks that player, until the host picks another.
let revealTouched = 0;
function suggestReveal(s, now) {
  const a = now.find(x => x.event === "reveal");
  const inp = a && a.inputs.find(i => i.kind === "player");
  const seat = inp ? valueAt(s, inp.default) : null;
  const players = s.players || [];
  const row = $("reveal-row");
  const named = typeof seat === "number" && players[seat];
  row.classList.toggle("suggested", !!named);
  $("reveal-hint").textContent = named ? `${players[seat].name} shows their hand now: ` : "";
  if (named && Date.now() - revealTouched > 15000) $("reveal-who").value = String(seat);
}
$("reveal-who").addEventListener("change", () => { revealTouched = Date.now(); });

async function revealCall(path, method, body) {
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/reveal${path}`, {method,
      headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token()}`},
      body: body === undefined ? undefined : JSON.stringify(body)});
    return [r, await r.json().catch(() => ({}))];
  } catch (e) { return [null, {error: "the server cannot be reached; nothing changed"}]; }
}

$("reveal-start").addEventListener("click", async () => {
  const [r, body] = await revealCall("", "POST", {player: Number($("reveal-who").value)});
  if (r && r.ok) toast("ok", `✓ reading ${body.reveal.player}'s hand: lay the cards out under the camera`);
  else toast("bad", `${body.error || "not started"}`);
});

$("reveal").addEventListener("click", async e => {
  if (e.target.id === "reveal-cancel") {
    const [r, body] = await revealCall("", "DELETE");
    toast(r && r.ok ? "ok" : "bad", r && r.ok ? "✓ stopped reading the hand; nothing was charged" : body.error);
  } else if (e.target.id === "reveal-confirm") {
    const cards = $("reveal-cards").value.split(/[\s,]+/).map(c => c.trim().toLowerCase()).filter(Boolean);
    const [r, body] = await revealCall("/confirm", "POST", {cards});
    if (!r || !r.ok) { toast("bad", body.error || "not sent"); return; }
    const v = body.verdict;
    if (v.accepted) toast("ok", `✓ ${v.reason}`);
    else toast("bad", "", `✗ <b class="who">${escapeHtml(v.player || "")}</b>: not allowed: ${escapeHtml(v.reason)}`);
  }
});

// -- spoken announcements and keeping the screen awake -------------------------------------------------
function speak(text) {
  if (!$("speak").checked || !("speechSynthesis" in window)) return;
  const u = new SpeechSynthesisUtterance(text.replace(/-/g, " ").replace(/draw(\d)/g, "draw $1"));
  speechSynthesis.cancel();
  speechSynthesis.speak(u);
}
$("speak").checked = localStorage.getItem("tableref.speak") === "1";
$("speak").addEventListener("change", e => localStorage.setItem("tableref.speak", e.target.checked ? "1" : "0"));

let wakeLock = null;
async function keepAwake() {
  if (!("wakeLock" in navigator) || document.visibilityState !== "visible" || wakeLock) return;
  try {
    wakeLock = await navigator.wakeLock.request("screen");
    $("awake").hidden = false;
    wakeLock.addEventListener("release", () => { wakeLock = null; $("awake").hidden = true; });
  } catch (e) { /* not allowed here (no user gesture yet, or battery saver) */ }
}
document.addEventListener("visibilitychange", keepAwake);
document.addEventListener("click", keepAwake, {once: true});
keepAwake();

// -- the connection ---------------------------------------------------------------------------------
let lostSince = null, lostTimer = null;
function onLink(on) {
  $("link").classList.toggle("on", on);
  $("link").title = on ? "live connection" : "connection lost, retrying";
  if (on) {
    lostSince = null; clearInterval(lostTimer); lostTimer = null;
    $("offline").hidden = true;
    return;
  }
  if (lostSince === null) lostSince = Date.now();
  const show = () => {
    const s = Math.round((Date.now() - lostSince) / 1000);
    $("offline").textContent = `Connection lost: retrying${s >= 2 ? ` (for ${s} s)` : ""}… ` +
      "What is shown may be out of date. If it lasts, check that the server is still running and that this phone is on the same network.";
  };
  show();
  $("offline").hidden = false;
  if (!lostTimer) lostTimer = setInterval(show, 1000);
}

// -- the timeline: every event of the game in force, with the referee's words ------------------------
let timeline = [];
let timelineAsked = 0, timelineShown = 0;
async function refreshTimeline() {
  // two events close together ask twice; under load the older answer can arrive last, and the
  // timeline stayed one event short until the next one (seen in a full test run): the newest stands
  const asked = ++timelineAsked;
  const r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/timeline`).catch(() => null);
  const d = r && r.ok ? await r.json().catch(() => null) : null;
  if (!d) { if (asked === timelineAsked) lastCount = null; return; }   // asked again at the next state
  if (asked < timelineShown) return;
  timelineShown = asked;
  timeline = d.timeline || [];
  $("timeline-count").textContent = timeline.length ? `(${timeline.length} events)` : "";
  $("timeline").innerHTML = timeline.slice().reverse().map(e =>
    `<li><a class="n" href="/t/${encodeURIComponent(TABLE)}/replay?step=${e.n}" title="replay from here">${e.n}</a>` +
    `<span class="who">${escapeHtml(e.player || "")}</span>` +
    `<span class="what">${escapeHtml(e.summary)}</span></li>`).join("");
}
$("export").addEventListener("click", () => {
  // Words on lines starting with "#", which `tableref replay` skips: it reads this file as it is.
  const lines = [`# tableref · table ${TABLE} · ${state && state.rules || ""} · ${new Date().toISOString()}`, "#"]
    .concat(timeline.map(e => `# ${e.n}. ${e.summary}`));
  const text = lines.join("\n") + "\n#\n" + "# the events, one JSON object a line (tableref replay FILE):\n" +
    timeline.map(e => JSON.stringify(e.event)).join("\n") + "\n";
  const a = document.createElement("a");
  a.href = URL.createObjectURL(new Blob([text], {type: "text/plain"}));
  a.download = `tableref-${TABLE}-timeline.txt`;
  document.body.appendChild(a); a.click(); a.remove();
});

// -- host feedback: a line at the bottom of the screen, under the thumb -------------------------------
function toast(kind, text, html) {
  const r = $("result");
  r.className = `result ${kind}`;
  if (html !== undefined) r.innerHTML = html; else r.textContent = text;
}

function nameOf(seat) {
  const p = state && state.players && state.players[seat];
  return p ? p.name : null;
}

// Sends one event; every tap is answered at once ("…") and then with the verdict, which replaces it.
async function send(event, what) {
  const seq = ++tapSeq;
  const who = event.player !== undefined ? nameOf(event.player) : event.caller !== undefined ? nameOf(event.caller) : null;
  const prefix = who ? `${who}: ` : "";
  toast("pending", `${prefix}${what || event.type} …`);
  let r;
  try {
    // One event_id for the tap: a retry after a lost answer is applied at most once. Made against
    // the version this page shows, so a tap that arrives after the table moved on is refused.
    const command = Command.wrap(event, knownVersion);
    const post = () => fetch(`/api/tables/${encodeURIComponent(TABLE)}/events`, {
      method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token()}`},
      body: JSON.stringify(command), signal: AbortSignal.timeout(Command.TTL_MS + 2000)});
    try { r = await post(); }
    catch (e) { if (e.name === "TimeoutError") throw e; r = await post(); }   // once more, the same event_id
  } catch (e) {
    const why = e.name === "TimeoutError"
      ? `no answer in ${(Command.TTL_MS + 2000) / 1000} s; the server drops a tap that waited that long, so it was not carried out`
      : "the server cannot be reached; nothing changed";
    if (seq === tapSeq) toast("bad", `${prefix}${what || event.type}: ${why}. Try again when the connection is back.`);
    return null;
  }
  const body = await r.json().catch(() => ({}));
  if (typeof body.version === "number" && !(knownVersion > body.version)) knownVersion = body.version;
  if (seq !== tapSeq) return body.verdict || null;
  if (r.status === 409) {       // stale (the table moved on) or late (waited too long): not judged
    toast("bad", `${prefix}${body.error || "not carried out"}`);
    return body.verdict || null;
  }
  if (r.status === 401 || r.status === 403) {
    toast("bad", "refused: the server does not accept this browser's host token. Paste the new one above.");
    showTokenRefused();
    return null;
  }
  if (!r.ok) { toast("bad", `${prefix}${what || event.type}: ${body.error || r.statusText} (${r.status}); nothing changed`); return null; }
  const v = body.verdict;
  const name = v.player || who;
  if (v.accepted) toast("ok", `✓ ${v.reason}`);
  else toast("bad", "", `✗ ${name ? `<b class="who">${escapeHtml(name)}</b>: ` : ""}not allowed: ${escapeHtml(v.reason)}`);
  // The pickers follow the game again (the stream may have pushed the new state before this answer).
  whoTouched = 0;
  if (v.accepted) for (const k of Object.keys(touched)) delete touched[k];
  if (state && hostWired) renderHost(state);
  return v;
}

// -- the card chooser: a tray of picked cards ----------------------------------------------------------
function multiNow(actions) {
  if (multi) return true;
  const takers = actions.filter(a => a.section !== "anytime" && a.inputs.some(i => i.kind === "cards" || i.kind === "card"));
  return takers.length > 0 && takers.every(a => a.inputs.some(i => i.kind === "cards" && maxOf(i) !== 1));
}
let currentActions = [];

function renderPicker() {
  const deck = Cards.deck;
  if (!deck) return;
  const colors = [...deck.colors, "wild"];
  const cp = $("colorpicks");
  if (!cp.dataset.done) {
    cp.dataset.done = "1";
    cp.innerHTML = colors.map(c => c === "wild"
      ? `<button class="pick" type="button" data-color="wild">no colour</button>`
      : `<button class="pick colorpick" type="button" data-color="${c}" style="background:${Cards.colorInfo(c).hex}">${Cards.shapeSvg(c)}${Cards.colorInfo(c).letter}</button>`).join("");
  }
  const chosen = pickColor || deck.colors[0];
  cp.querySelectorAll("button").forEach(b => b.classList.toggle("sel", b.dataset.color === chosen));
  const ids = Object.values(deck.cards).filter(c => chosen === "wild" ? !c.color : c.color === chosen).map(c => c.id);
  const sp = $("symbolpicks");
  if (sp.dataset.color !== chosen) {
    sp.dataset.color = chosen;
    sp.innerHTML = ids.map(id => `<button class="pick" type="button" data-card="${id}" title="${id}">${escapeHtml(Cards.label(Cards.info(id)))}</button>`).join("");
  }
  sp.querySelectorAll("button").forEach(b => b.classList.toggle("sel", tray.includes(b.dataset.card)));
  const pk = $("picked");
  pk.innerHTML = "";
  if (!tray.length) pk.textContent = multiNow(currentActions) ? "pick the cards" : "pick a card";
  tray.forEach((id, i) => {
    const b = document.createElement("button");
    b.type = "button"; b.className = "tray-card"; b.dataset.index = i; b.title = `${id}: tap to take it out`;
    b.appendChild(Cards.element(id));
    pk.appendChild(b);
  });
  $("multi").setAttribute("aria-pressed", multiNow(currentActions) ? "true" : "false");
  $("multi").classList.toggle("sel", multiNow(currentActions));
}

function pickCard(id) {
  if (multiNow(currentActions)) tray.push(id); else tray = [id];
  renderPicker();
  toast("info", `picked: ${tray.join(", ")}`);
}

// -- the rule set's host actions -------------------------------------------------------------------------
function valueAt(s, path) {
  if (typeof path !== "string") return path;
  let v = s;
  for (const k of path.split(".")) { if (v === null || v === undefined) return undefined; v = v[k]; }
  return v;
}
function maxOf(input) {
  if (input.maximum === undefined || input.maximum === null) return null;
  const m = typeof input.maximum === "number" ? input.maximum : valueAt(state, input.maximum);
  return typeof m === "number" ? m : null;
}

function visibleActions(s) {
  const info = rulesInfo[s.rules];
  if (!info) return [];
  return info.host_actions.filter(a => {
    if (s.phase === "setup" || s.phase === "over") return false;
    if (a.phases.length && !a.phases.includes(s.phase)) return false;
    return (a.when || []).every(c => c.values.includes(valueAt(s, c.path)));
  });
}

function seatOptions(optional) {
  return (optional ? `<option value="">— nobody named</option>` : `<option value="">— choose</option>`) +
    (state.players || []).map((p, i) => `<option value="${i}">${escapeHtml(p.name)}</option>`).join("");
}

// An "at any time" action has its own player picker: the shared one follows the moment.
function kindOf(a, inp) { return inp.kind === "player" && a.section === "anytime" ? "seat" : inp.kind; }

function actionHtml(a) {
  const parts = [];
  let sends = `<button type="button" class="act ${a.style || ""}" id="act-${a.id}" data-action="${a.id}">${escapeHtml(a.label)}</button>`;
  for (const inp of a.inputs) {
    const id = `in-${a.id}-${inp.field}`, kind = kindOf(a, inp);
    if (kind === "seat") parts.push(`<label>${escapeHtml(inp.label || inp.field)} <select id="${id}" data-field="${inp.field}">${seatOptions(inp.optional)}</select></label>`);
    else if (inp.kind === "count") parts.push(`<input id="${id}" type="number" inputmode="numeric" min="${inp.minimum || 0}" max="99" aria-label="${escapeHtml(inp.label || inp.field)}" class="count-input">`);
    else if (inp.kind === "flag") parts.push(`<label class="toggle"><input type="checkbox" id="${id}" ${inp.default ? "checked" : ""}> ${escapeHtml(inp.label || inp.field)}</label>`);
    else if (inp.kind === "color") {
      const colors = (Cards.deck && Cards.deck.colors) || ["red", "yellow", "green", "blue"];
      sends = `<span class="act-label">${escapeHtml(a.label)}</span>` + colors.map(c =>
        `<button type="button" class="colorpick act" id="act-${a.id}-${c}" data-action="${a.id}" data-value="${c}" style="background:${Cards.colorInfo(c).hex}">${Cards.shapeSvg(c)}${c}</button>`).join("");
    } else if (inp.kind === "choice") {
      sends = `<span class="act-label">${escapeHtml(a.label)}</span>` + inp.choices.map(c =>
        `<button type="button" class="act ${a.style || ""}" id="act-${a.id}-${c.value}" data-action="${a.id}" data-value="${escapeHtml(c.value)}">${escapeHtml(c.label)}</button>`).join("");
    }
  }
  return `<div class="action" data-id="${a.id}"><div class="row">${sends}${parts.join("")}</div>` +
         `<div class="help">${escapeHtml(a.help)}</div></div>`;
}

function renderHost(s) {
  $("host").hidden = false;
  $("dock").hidden = false;
  document.body.classList.add("has-dock");
  $("host-login").hidden = true;
  const players = s.players || [];
  const acts = visibleActions(s);
  currentActions = acts;
  // A card's question to its user first, then the turn's actions; "at any time" ones are folded.
  const now = acts.filter(a => a.section === "decision").concat(acts.filter(a => a.section === "turn"));
  const any = acts.filter(a => a.section === "anytime");
  const key = `${s.rules}|${s.phase}|${acts.map(a => a.id).join(",")}|${players.map(p => p.name).join(",")}`;
  if (key !== actionsKey) {
    actionsKey = key;
    $("actions").innerHTML = now.map(actionHtml).join("") ||
      `<div class="help">${s.phase === "over" ? "The game is over." : s.phase === "setup" ? "No game yet: create one in the lobby." : "Nothing to do here now."}</div>`;
    $("actions-anytime").innerHTML = any.map(actionHtml).join("");
    $("anytime-fold").hidden = !any.length;
  }
  // The defaults follow the game until the host changes an input.
  const recent = id => Date.now() - (touched[id] || 0) < 15000;
  for (const a of acts) for (const inp of a.inputs) {
    const el = $(`in-${a.id}-${inp.field}`);
    if (!el || recent(el.id)) continue;
    if (kindOf(a, inp) === "seat") {
      const d = valueAt(s, inp.default);
      el.value = typeof d === "number" ? String(d) : "";
    } else if (inp.kind === "count") {
      const d = valueAt(s, inp.default);
      el.value = typeof d === "number" && d >= (inp.minimum || 0) && d > 0 ? d : (inp.minimum || 1);
    }
  }
  // The shared player picker: the seat the first action of the moment waits for.
  const who = $("who");
  const html = players.map((p, i) => `<option value="${i}">${escapeHtml(p.name)}</option>`).join("");
  if (who.dataset.html !== html) { who.innerHTML = html; who.dataset.html = html; }
  const usesWho = now.some(a => a.inputs.some(i => i.kind === "player"));
  $("who-row").hidden = !usesWho;
  if (Date.now() - whoTouched > 15000) {
    const first = now.flatMap(a => a.inputs).find(i => i.kind === "player");
    let d = first ? valueAt(s, first.default) : s.current_player;
    if (typeof d !== "number") d = s.current_player;
    if (typeof d === "number") who.value = String(d);
  }
  $("chooser").hidden = !acts.some(a => a.inputs.some(i => i.kind === "cards" || i.kind === "card"));
  renderPicker();
  const waiting = s.waiting_for && s.phase !== "over" ? `Now: ${s.waiting_for}` : s.phase === "over" ? "The game is over." : "";
  $("host-waiting").textContent = waiting;
  const last = (s.log || []).at(-1);
  $("undo-what").textContent = last ? last.summary : "nothing to undo";
  $("do-undo").disabled = !last;
  $("fix-row").hidden = !(last && ["play", "flip"].includes(last.event.type) && s.phase !== "over") || $("chooser").hidden;
  $("new-game-row").hidden = s.phase !== "over";
  suggestReveal(s, now);
  if (typeof Moments !== "undefined") Moments.apply(s, acts);     // fold what the moment does not need
}

// Builds the event of an action from its inputs; returns [event, words] or [null, why not].
function buildEvent(a, value) {
  const ev = {type: a.event, ...a.fixed};
  const words = [a.label];
  for (const inp of a.inputs) {
    const el = $(`in-${a.id}-${inp.field}`), kind = kindOf(a, inp);
    if (kind === "player") ev[inp.field] = parseInt($("who").value, 10);
    else if (kind === "seat") {
      if (el.value === "") {
        if (inp.optional) continue;
        return [null, `${a.label}: choose ${inp.label || inp.field} first`];
      }
      ev[inp.field] = parseInt(el.value, 10);
      words.push(`${inp.label || inp.field}: ${nameOf(ev[inp.field])}`);
    } else if (inp.kind === "count") {
      const n = Number(el.value);
      if (!Number.isInteger(n) || n < (inp.minimum || 0)) return [null, `${a.label}: ${inp.label || inp.field} is a whole number from ${inp.minimum || 0}`];
      ev[inp.field] = n; words.push(String(n));
    } else if (inp.kind === "flag") ev[inp.field] = el.checked;
    else if (inp.kind === "color" || inp.kind === "choice") {
      ev[inp.field] = value;
      const c = (inp.choices || []).find(c => c.value === value);
      words.push(c ? c.label : value);
    } else if (inp.kind === "card") {
      if (tray.length !== 1) return [null, tray.length ? `${a.label}: pick one card, not ${tray.length}` : `${a.label}: pick the card first`];
      ev[inp.field] = tray[0]; words.push(tray[0]);
    } else if (inp.kind === "cards") {
      const lo = inp.minimum || 1, hi = maxOf(inp);
      if (tray.length < lo) {
        const what = inp.symbols ? ` (${inp.symbols.join(", ")})` : "";
        return [null, lo === 1 ? `${a.label}: pick the card first` : `${a.label}: pick ${lo} cards${what}, ${tray.length} picked so far (the chooser now adds cards)`];
      }
      if (hi !== null && tray.length > hi) return [null, `${a.label}: at most ${hi} card${hi === 1 ? "" : "s"} here, ${tray.length} picked (tap a picked card to take it out)`];
      ev[inp.field] = tray.slice(); words.push(tray.join(", "));
    }
  }
  return [ev, words.join(" ")];
}

async function runAction(id, value) {
  const a = currentActions.find(x => x.id === id);
  if (!a) return;
  const [ev, words] = buildEvent(a, value);
  if (!ev) {
    ++tapSeq;
    toast("bad", words);
    const need = a.inputs.find(i => i.kind === "cards" && (i.minimum || 1) > 1);
    if (need) { multi = true; renderPicker(); }
    return;
  }
  const v = await send(ev, words);
  if (v && v.accepted) { tray = []; multi = false; renderPicker(); }
}

// -- token recovery ------------------------------------------------------------------------------------
function showTokenRefused() {
  $("auth-note").hidden = false;
  $("auth-text").textContent = "The server refuses this browser's host token: every change will be refused. " +
    "It changes when the server restarts without --host-token. Paste the new token, or the host link the server printed:";
}

async function useToken(form) {
  const input = form.querySelector(".token-input");
  const value = HostToken.parse(input.value);
  if (!value) { ++tapSeq; toast("bad", "paste the host token first"); input.focus(); return; }
  const answer = await HostToken.check(value);
  if (answer === "refused") {
    $("dock").hidden = false; toast("bad", "that token is refused too: check the host link the server printed at start");
    return;
  }
  if (answer === "unreachable") { $("dock").hidden = false; toast("bad", "the server cannot be reached to check the token; try again"); return; }
  const had = token();
  HostToken.set(value);
  input.value = "";
  $("auth-note").hidden = true;
  $("dock").hidden = false;
  toast("ok", had && had !== value ? "✓ new host token saved: it replaces the one this browser held" : "✓ host token saved: the host controls work");
  if (!hostWired) wireHost();
  if (state) render(state);
}
document.querySelectorAll("[data-token-form]").forEach(f => f.addEventListener("submit", e => { e.preventDefault(); useToken(f); }));

// -- wiring ----------------------------------------------------------------------------------------------
function wireHost() {
  hostWired = true;
  $("who").addEventListener("change", () => { whoTouched = Date.now(); });
  for (const box of [$("actions"), $("actions-anytime")]) {
    box.addEventListener("click", e => {
      const b = e.target.closest("button[data-action]"); if (!b) return;
      runAction(b.dataset.action, b.dataset.value);
    });
    box.addEventListener("change", e => { if (e.target.id) touched[e.target.id] = Date.now(); });
    box.addEventListener("input", e => { if (e.target.id) touched[e.target.id] = Date.now(); });
  }
  $("colorpicks").addEventListener("click", e => {
    const b = e.target.closest("button"); if (!b) return;
    pickColor = b.dataset.color; renderPicker();
  });
  $("symbolpicks").addEventListener("click", e => {
    const b = e.target.closest("button"); if (!b) return;
    pickCard(b.dataset.card);
  });
  $("picked").addEventListener("click", e => {
    const b = e.target.closest("button.tray-card"); if (!b) return;
    const gone = tray.splice(parseInt(b.dataset.index, 10), 1);
    renderPicker();
    toast("info", `taken out: ${gone[0]}`);
  });
  $("multi").addEventListener("click", () => {
    multi = !multiNow(currentActions);
    renderPicker();
    toast("info", multi ? "each card picked is added (for a double, a GIVE of two, a hand shown)" : "a card picked replaces the one before");
  });
  $("clear-picked").addEventListener("click", () => { tray = []; renderPicker(); toast("info", "no card picked"); });
  $("do-fix").addEventListener("click", async () => {
    // A misread card: take the last play back and play the right card for the same player.
    const last = (state.log || []).at(-1);
    if (!last || !["play", "flip"].includes(last.event.type)) { ++tapSeq; toast("bad", "the last event is not a play or a flip"); return; }
    if (tray.length !== 1) { ++tapSeq; toast("bad", "Fix misread card: pick the right card first"); return; }
    const fixed = last.event.type === "flip" ? {type: "flip", card: tray[0]} : {...last.event, cards: [tray[0]]};
    const undone = await send({type: "undo"}, "undo the misread card");
    if (!undone || !undone.accepted) return;
    const v = await send(fixed, `play ${tray[0]} instead`);
    if (v && !v.accepted) $("result").textContent += " (the misread play stays undone)";
    else if (v) { tray = []; renderPicker(); }
  });
  $("do-undo").addEventListener("click", () => send({type: "undo"}, "undo"));
  $("do-new-game").addEventListener("click", async () => {
    // with the token: the setup as stored, a camera address's password included (others see it masked)
    const r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/events`, {headers: {"Authorization": `Bearer ${token()}`}})
      .then(r => r.json()).catch(() => null);
    const setup = r && (r.events || []).find(e => e.type === "setup");
    if (!setup) { ++tapSeq; toast("bad", "this table's setup cannot be read; nothing changed"); return; }
    const {event_id, ...again} = setup;
    send(again, "start another game");
  });
  $("do-json").addEventListener("click", () => {
    let ev;
    try { ev = JSON.parse($("json").value); } catch (e) { ++tapSeq; toast("bad", `not JSON: ${e.message}`); return; }
    send(ev, "event");
  });
  const join = `${location.origin}/t/${encodeURIComponent(TABLE)}`;
  $("join").href = join; $("join").textContent = join;
  $("overlay-link").href = `${join}/overlay`; $("overlay-link").textContent = `${join}/overlay`;
  $("camera-link").href = `${join}/camera`; $("camera-link").textContent = `${join}/camera`;
  $("qr").src = `/api/tables/${encodeURIComponent(TABLE)}/qr.svg`;
}

// A host link carrying another token than the one this browser holds: ask which one to keep.
function askAboutLinkToken(given) {
  const note = $("token-note");
  note.hidden = false;
  note.innerHTML = "This link carries a different host token from the one this browser holds. " +
    "<button type='button' id='token-use-link'>Use the link's token</button> " +
    "<button type='button' id='token-keep'>Keep this browser's</button>";
  $("token-use-link").addEventListener("click", async () => {
    const answer = await HostToken.check(given);
    if (answer === "refused") { note.textContent = "The link's token is refused by this server: this browser keeps its own."; return; }
    HostToken.set(given);
    note.textContent = "Using the link's token.";
    if (!hostWired) { $("host-login").hidden = true; wireHost(); }
    checkToken();
  });
  $("token-keep").addEventListener("click", () => { note.textContent = "Kept this browser's token."; });
}

async function checkToken() {
  const answer = await HostToken.check();
  if (answer === "refused") showTokenRefused();
  else $("auth-note").hidden = true;
}

// -- start -------------------------------------------------------------------------------------------
(async function start() {
  const [info, rules] = await Promise.all([
    fetch(`/api/tables/${encodeURIComponent(TABLE)}`).then(r => r.json()).catch(() => ({})),
    fetch("/api/rules").then(r => r.json()).catch(() => ({rules: []}))]);
  for (const r of rules.rules || []) rulesInfo[r.id] = r;
  await Cards.load(info.deck);
  if (fromLink && fromLink.pending) askAboutLinkToken(fromLink.token);
  if (token()) { wireHost(); checkToken(); }
  else $("host-login").hidden = false;
  followTable(TABLE, render, onLink);
})();
