// The lobby: lists the tables and creates one by posting its setup event to a new table id.
"use strict";
const $ = id => document.getElementById(id);
const fromLink = HostToken.takeFromHash();
const DEFAULT_RULES = ["ono", "regulation"];     // what most groups play; the first one known is offered
let rules = [];

async function listTables() {
  const d = await fetch("/api/tables").then(r => r.json());
  $("tables").innerHTML = d.tables.length ? d.tables.map(t =>
    `<li><a href="${t.links.phone}"><b>${escapeHtml(t.id)}</b></a> · ${escapeHtml(t.rules || "")} · ` +
    `<span class="names">${t.players.map(escapeHtml).join(", ")}</span> · ${t.event_count} events · <a href="${t.links.overlay}">overlay</a>` +
    (t.camera ? ` · <a href="${t.links.camera}">camera</a>` : "") + `</li>`).join("") : "<li>no tables yet</li>";
}

function players() { return $("players").value.split(/[\n,]+/).map(s => s.trim()).filter(Boolean); }

function showOptions() {
  const r = rules.find(r => r.id === $("rules").value);
  if (!r) return;
  $("rules-help").textContent = `${r.title}: deck ${r.deck}, ${r.players[0]} to ${r.players[1]} players, ${r.hand_size} cards each`;
  $("options").innerHTML = r.options.map(o => {
    const id = `opt-${o.name}`;
    let input;
    if (typeof o.default === "boolean") input = `<input type="checkbox" id="${id}" data-opt="${o.name}" ${o.default ? "checked" : ""}>`;
    else if (o.choices) input = `<select id="${id}" data-opt="${o.name}">${o.choices.map(c => `<option value="${escapeHtml(c)}" ${c === o.default ? "selected" : ""}>${escapeHtml(c)}</option>`).join("")}</select>`;
    else if (typeof o.default === "number") input = `<input type="number" id="${id}" data-opt="${o.name}" value="${o.default}" ${o.minimum !== undefined ? `min="${o.minimum}"` : ""} style="width:7em">`;
    else input = `<input id="${id}" data-opt="${o.name}" value="${escapeHtml(o.default)}">`;
    return `<div class="opt">${input}<label for="${id}"><b>${escapeHtml(o.label || o.name)}</b> <span class="help">${escapeHtml(o.help)}</span></label></div>`;
  }).join("");
}

function showDealers() {
  const old = $("dealer").value;
  $("dealer").innerHTML = players().map((p, i) => `<option value="${i}">${escapeHtml(p)}</option>`).join("");
  if (old && old < players().length) $("dealer").value = old;
}

function askForToken(why) {
  $("token-row").hidden = false;
  $("token-why").hidden = !why;
  $("token-why").textContent = why || "";
  $("token").focus();
}

async function create(e) {
  e.preventDefault();
  const out = $("result");
  const r = rules.find(r => r.id === $("rules").value);
  const options = {};
  document.querySelectorAll("[data-opt]").forEach(el => {
    const o = r.options.find(o => o.name === el.dataset.opt);
    const v = el.type === "checkbox" ? el.checked
      : typeof o.default === "number" ? Number(el.value)
      : o.choices && typeof o.choices[0] === "number" ? Number(el.value) : el.value;
    if (v !== o.default) options[o.name] = v;
  });
  const setup = {type: "setup", rules: r.id, players: players(), dealer: parseInt($("dealer").value || "0", 10), options};
  if ($("camera").value.trim()) setup.camera = $("camera").value.trim();
  // A token typed here wins over the stored one: that one may be the stale token of an earlier run.
  const typed = HostToken.parse($("token").value);
  const token = typed || HostToken.get() || "";
  const id = $("tid").value.trim();
  out.className = "result"; out.textContent = "creating…";
  let res, body;
  try {
    res = await fetch(`/api/tables/${encodeURIComponent(id)}/events`, {method: "POST",
      headers: {"Content-Type": "application/json", "Authorization": `Bearer ${token}`}, body: JSON.stringify(Command.wrap(setup))});
    body = await res.json().catch(() => ({}));
  } catch (err) {
    out.className = "result bad"; out.textContent = "the server cannot be reached; nothing was created"; return;
  }
  if (res.ok && body.verdict.accepted) {
    if (typed) HostToken.set(typed);
    location.href = `/t/${encodeURIComponent(id)}`;
    return;
  }
  out.className = "result bad";
  if (res.status === 401 || res.status === 403) {
    out.textContent = typed ? "refused: the server does not accept this host token; check the host link it printed at start"
      : "refused: the server does not accept the host token this browser holds (a restart can change it); paste the new one below";
    askForToken(typed ? "" : "The stored host token is refused by the server. Paste the new token or the host link:");
    return;
  }
  out.textContent = res.ok ? `not allowed: ${body.verdict.reason}` : `${res.status}: ${body.error}`;
}

(async function start() {
  if (fromLink && fromLink.pending) {
    // the link's token differs from this browser's: offered in the field, used only if the host
    // creates a table with it (then stored), never silently in place of the one held
    $("token").value = fromLink.token;
    askForToken("This link carries a different host token from the one this browser holds. It is in the " +
                "field below: create a table with it to use it from now on, or clear the field to keep this browser's.");
  }
  if (!HostToken.get()) askForToken("");
  else HostToken.check().then(answer => {
    if (answer === "refused") askForToken("The host token this browser holds is refused by the server (a restart can change it). Paste the new token or the host link:");
  });
  rules = (await fetch("/api/rules").then(r => r.json())).rules;
  $("rules").innerHTML = rules.map(r => `<option value="${r.id}">${escapeHtml(r.title)} (${r.id})</option>`).join("");
  const preferred = DEFAULT_RULES.find(id => rules.some(r => r.id === id));
  if (preferred) $("rules").value = preferred;
  $("rules").addEventListener("change", showOptions);
  $("players").addEventListener("input", showDealers);
  $("create").addEventListener("submit", create);
  showOptions(); showDealers(); listTables();
})();
