// The lobby: lists the tables and creates one by posting its setup event to a new table id.
"use strict";
const TOKEN_KEY = "tableref.host-token";
const $ = id => document.getElementById(id);
(function takeToken() {
  const m = location.hash.match(/token=([^&]+)/);
  if (m) { localStorage.setItem(TOKEN_KEY, decodeURIComponent(m[1])); history.replaceState(null, "", location.pathname); }
})();
let rules = [];

async function listTables() {
  const d = await fetch("/api/tables").then(r => r.json());
  $("tables").innerHTML = d.tables.length ? d.tables.map(t =>
    `<li><a href="${t.links.phone}"><b>${escapeHtml(t.id)}</b></a> · ${escapeHtml(t.rules || "")} · ` +
    `${t.players.map(escapeHtml).join(", ")} · ${t.event_count} events · <a href="${t.links.overlay}">overlay</a>` +
    (t.camera ? ` · <a href="${t.links.camera}">camera</a>` : "") + `</li>`).join("") : "<li>no tables yet</li>";
}

function players() { return $("players").value.split(/[\n,]+/).map(s => s.trim()).filter(Boolean); }

function showOptions() {
  const r = rules.find(r => r.id === $("rules").value);
  if (!r) return;
  $("rules-help").textContent = `${r.title}: deck ${r.deck}, ${r.players[0]} to ${r.players[1]} players, ${r.hand_size} cards each`;
  $("options").innerHTML = r.options.map(o => {
    let input;
    if (typeof o.default === "boolean") input = `<input type="checkbox" data-opt="${o.name}" ${o.default ? "checked" : ""}>`;
    else if (o.choices) input = `<select data-opt="${o.name}">${o.choices.map(c => `<option ${c === o.default ? "selected" : ""}>${escapeHtml(c)}</option>`).join("")}</select>`;
    else if (typeof o.default === "number") input = `<input type="number" data-opt="${o.name}" value="${o.default}" ${o.minimum !== undefined ? `min="${o.minimum}"` : ""} style="width:7em">`;
    else input = `<input data-opt="${o.name}" value="${escapeHtml(o.default)}">`;
    return `<label class="opt">${input}<span><b>${o.name}</b> <span class="help">${escapeHtml(o.help)}</span></span></label>`;
  }).join("");
}

function showDealers() {
  const old = $("dealer").value;
  $("dealer").innerHTML = players().map((p, i) => `<option value="${i}">${escapeHtml(p)}</option>`).join("");
  if (old && old < players().length) $("dealer").value = old;
}

async function create(e) {
  e.preventDefault();
  const r = rules.find(r => r.id === $("rules").value);
  const options = {};
  document.querySelectorAll("[data-opt]").forEach(el => {
    const o = r.options.find(o => o.name === el.dataset.opt);
    const v = el.type === "checkbox" ? el.checked : typeof o.default === "number" ? Number(el.value) : el.value;
    if (v !== o.default) options[o.name] = v;
  });
  const setup = {type: "setup", rules: r.id, players: players(), dealer: parseInt($("dealer").value || "0", 10), options};
  if ($("camera").value.trim()) setup.camera = $("camera").value.trim();
  const token = localStorage.getItem(TOKEN_KEY) || $("token").value;
  const id = $("tid").value.trim();
  const res = await fetch(`/api/tables/${encodeURIComponent(id)}/events`, {method: "POST",
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`}, body: JSON.stringify(setup)});
  const body = await res.json().catch(() => ({}));
  const out = $("result");
  if (res.ok && body.verdict.accepted) {
    if ($("token").value) localStorage.setItem(TOKEN_KEY, $("token").value);
    location.href = `/t/${encodeURIComponent(id)}`;
    return;
  }
  out.className = "result bad";
  out.textContent = res.status === 401 ? "refused: the host token is needed to create a table"
    : res.ok ? `not allowed: ${body.verdict.reason}` : `${res.status}: ${body.error}`;
}

(async function start() {
  if (!localStorage.getItem(TOKEN_KEY)) $("token-row").hidden = false;
  rules = (await fetch("/api/rules").then(r => r.json())).rules;
  $("rules").innerHTML = rules.map(r => `<option value="${r.id}">${escapeHtml(r.title)} (${r.id})</option>`).join("");
  $("rules").addEventListener("change", showOptions);
  $("players").addEventListener("input", showDealers);
  $("create").addEventListener("submit", create);
  showOptions(); showDealers(); listTables();
})();
