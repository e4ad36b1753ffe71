// The phone view: follows the table's stream; with the host token (from the #token= link, kept in
// localStorage, never in a URL the server sees) it also shows the host controls.
"use strict";

const TABLE = document.body.dataset.table;
const TOKEN_KEY = "tableref.host-token";
const $ = id => document.getElementById(id);
let state = null, lastCount = -1, lastVerdictKey = null;
let picked = null, pickColor = null, whoTouched = 0;

// -- the token: out of the address bar into localStorage, at once ------------------------------------
(function takeToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) {
    localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1]));
    history.replaceState(null, "", location.pathname + location.search);
  }
})();
const token = () => localStorage.getItem(TOKEN_KEY);

// -- rendering ---------------------------------------------------------------------------------------
function render(s) {
  state = s;
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
    return `<li class="${cls}" data-seat="${i}"><span class="name">${i === s.current_player ? "▶ " : ""}${escapeHtml(p.name)}</span>` +
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
    box.innerHTML = `<span class="tag">NOT ALLOWED</span>${escapeHtml(v.reason)}`;
  } else {
    box.className = "verdict";
    box.textContent = v.reason;
  }
  const key = v ? `${v.index}:${v.accepted}` : null;
  if (key !== lastVerdictKey && lastVerdictKey !== null && v) speak(v.accepted ? v.reason : `Not allowed. ${v.reason}`);
  lastVerdictKey = key;
  lastCount = s.event_count;
  if (token()) renderHost(s);
}

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

// -- host controls -----------------------------------------------------------------------------------
async function send(event) {
  const res = $("result");
  res.className = "result"; res.textContent = "…";
  let r;
  try {
    r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/events`, {
      method: "POST", headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token()}`},
      body: JSON.stringify(event)});
  } catch (e) {
    res.className = "result bad"; res.textContent = "the server cannot be reached"; return null;
  }
  const body = await r.json().catch(() => ({}));
  if (r.status === 401) {
    res.className = "result bad"; res.textContent = "refused: this browser does not hold the host token";
    return null;
  }
  if (!r.ok) { res.className = "result bad"; res.textContent = `${r.status}: ${body.error || r.statusText}`; return null; }
  res.className = body.verdict.accepted ? "result ok" : "result bad";
  res.textContent = (body.verdict.accepted ? "✓ " : "✗ not allowed: ") + body.verdict.reason;
  whoTouched = 0;
  return body.verdict;
}

function seat() { return parseInt($("who").value, 10); }

function fillPlayers(select, players, keep) {
  const old = select.value;
  const html = players.map((p, i) => `<option value="${i}">${escapeHtml(p.name)}</option>`).join("");
  if (select.dataset.html !== html) { select.innerHTML = html; select.dataset.html = html; }
  if (keep && old !== "") select.value = old;
}

function renderHost(s) {
  $("host").hidden = false;
  const players = s.players || [];
  const recent = Date.now() - whoTouched < 15000;
  fillPlayers($("who"), players, recent);
  fillPlayers($("caller"), players, true);
  fillPlayers($("target"), players, true);
  if (!recent && s.current_player !== null && s.current_player !== undefined) $("who").value = String(s.current_player);
  if (s.pending_draw && !recent) $("draw-count").value = s.pending_draw;
  renderPicker();
  const colors = (Cards.deck && Cards.deck.colors) || ["red", "yellow", "green", "blue"];
  const nc = $("namecolor");
  if (nc.dataset.done !== colors.join()) {
    nc.dataset.done = colors.join();
    nc.innerHTML = `<label>name the colour</label>` + colors.map(c =>
      `<button class="colorpick" data-name="${c}" style="background:${Cards.colorInfo(c).hex}">${Cards.shapeSvg(c)}${c}</button>`).join("");
  }
}

function renderPicker() {
  const deck = Cards.deck;
  if (!deck) return;
  const colors = [...deck.colors, "wild"];
  const cp = $("colorpicks");
  if (!cp.dataset.done) {
    cp.dataset.done = "1";
    cp.innerHTML = colors.map(c => c === "wild"
      ? `<button class="pick" data-color="wild">wilds</button>`
      : `<button class="pick colorpick" data-color="${c}" style="background:${Cards.colorInfo(c).hex}">${Cards.shapeSvg(c)}${Cards.colorInfo(c).letter}</button>`).join("");
  }
  const chosen = pickColor || deck.colors[0];
  cp.querySelectorAll("button").forEach(b => b.classList.toggle("sel", b.dataset.color === chosen));
  const ids = Object.values(deck.cards).filter(c => chosen === "wild" ? !c.color : c.color === chosen).map(c => c.id);
  const sp = $("symbolpicks");
  if (sp.dataset.color !== chosen) {
    sp.dataset.color = chosen;
    sp.innerHTML = ids.map(id => `<button class="pick" data-card="${id}">${escapeHtml(Cards.label(Cards.info(id)))}</button>`).join("");
  }
  sp.querySelectorAll("button").forEach(b => b.classList.toggle("sel", b.dataset.card === picked));
  const pk = $("picked");
  pk.innerHTML = "";
  if (picked) pk.appendChild(Cards.element(picked));
  else pk.textContent = "pick a card";
}

function wireHost() {
  $("who").addEventListener("change", () => { whoTouched = Date.now(); });
  $("colorpicks").addEventListener("click", e => {
    const b = e.target.closest("button"); if (!b) return;
    pickColor = b.dataset.color; renderPicker();
  });
  $("symbolpicks").addEventListener("click", e => {
    const b = e.target.closest("button"); if (!b) return;
    picked = b.dataset.card; renderPicker();
  });
  const need = () => { if (!picked) { $("result").className = "result bad"; $("result").textContent = "pick a card first"; } return picked; };
  $("do-play").addEventListener("click", () => {
    if (!need()) return;
    const ev = {type: "play", player: seat(), cards: [picked]};
    if ($("jumpin").checked) ev.announced = true;
    send(ev).then(v => { if (v && v.accepted) $("jumpin").checked = false; });
  });
  $("do-flip").addEventListener("click", () => { if (need()) send({type: "flip", card: picked}); });
  $("do-fix").addEventListener("click", async () => {
    // A misread card: take the last play back and play the right card for the same player.
    if (!need()) return;
    const last = (state.log || []).at(-1);
    if (!last || !["play", "flip"].includes(last.event.type)) {
      $("result").className = "result bad"; $("result").textContent = "the last event is not a play or a flip"; return;
    }
    const fixed = last.event.type === "flip" ? {type: "flip", card: picked}
                                              : {...last.event, cards: [picked]};
    const undone = await send({type: "undo"});
    if (!undone || !undone.accepted) return;
    const v = await send(fixed);
    if (v && !v.accepted) $("result").textContent += " (the misread play stays undone)";
  });
  $("do-draw").addEventListener("click", () => send({type: "draw", player: seat(), count: parseInt($("draw-count").value, 10) || 1}));
  $("do-pass").addEventListener("click", () => send({type: "pass", player: seat()}));
  $("do-challenge").addEventListener("click", () => send({type: "challenge", player: seat()}));
  $("namecolor").addEventListener("click", e => {
    const b = e.target.closest("button"); if (!b) return;
    send({type: "choose_color", player: seat(), color: b.dataset.name});
  });
  $("do-call").addEventListener("click", () => send({type: "call", caller: parseInt($("caller").value, 10), target: parseInt($("target").value, 10)}));
  $("do-reveal").addEventListener("click", () => {
    const cards = $("reveal-cards").value.split(/[\s,]+/).filter(Boolean);
    send({type: "reveal", player: seat(), cards});
  });
  $("do-undo").addEventListener("click", () => send({type: "undo"}));
  $("do-json").addEventListener("click", () => {
    let ev;
    try { ev = JSON.parse($("json").value); } catch (e) {
      $("result").className = "result bad"; $("result").textContent = `not JSON: ${e.message}`; return;
    }
    send(ev);
  });
  const join = `${location.origin}/t/${encodeURIComponent(TABLE)}`;
  $("join").href = join; $("join").textContent = join;
  $("overlay-link").href = `${join}/overlay`; $("overlay-link").textContent = `${join}/overlay`;
  $("camera-link").href = `${join}/camera`; $("camera-link").textContent = `${join}/camera`;
  $("qr").src = `/api/tables/${encodeURIComponent(TABLE)}/qr.svg`;
}

async function checkToken() {
  const r = await fetch("/api/auth", {headers: {"Authorization": `Bearer ${token()}`}}).catch(() => null);
  const note = $("auth-note");
  if (r && r.status === 401) {
    note.hidden = false;
    note.textContent = "This browser's host token is not the server's: changes will be refused. Open the host link again.";
  } else note.hidden = true;
}

// -- start -------------------------------------------------------------------------------------------
(async function start() {
  const info = await fetch(`/api/tables/${encodeURIComponent(TABLE)}`).then(r => r.json()).catch(() => ({}));
  await Cards.load(info.deck);
  if (token()) { wireHost(); checkToken(); }
  followTable(TABLE, render, on => $("link").classList.toggle("on", on));
})();
