// The OBS overlay: read-only, no token, transparent; options come from the query string.
"use strict";
const TABLE = document.body.dataset.table;
const q = new URLSearchParams(location.search);
const pick = (name, allowed, dflt) => allowed.includes(q.get(name)) ? q.get(name) : dflt;
const panel = document.getElementById("panel");
panel.classList.add(`pos-${pick("position", ["bottom-right", "bottom-left", "top-right", "top-left", "bottom-center"], "bottom-right")}`,
                    `size-${pick("size", ["s", "m", "l", "xl"], "m")}`, `theme-${pick("theme", ["dark", "light"], "dark")}`);
const $ = id => document.getElementById(id);

function render(s) {
  $("turn").textContent = turnWords(s);
  $("color").innerHTML = Cards.colorBadge(s.active_color);
  const cw = s.direction === "clockwise";
  $("direction").textContent = cw ? "↻ clockwise" : "↺ counter-clockwise";
  $("pending").innerHTML = s.pending_draw ? `<span class="pending">+${s.pending_draw}</span>` : "";
  Cards.showTop($("pile"), s.top_card);
  const v = s.last_verdict;
  const box = $("verdict");
  box.className = "verdict" + (v && !v.accepted ? " rejected" : "");
  box.textContent = v ? (v.accepted ? v.reason : `NOT ALLOWED: ${v.reason}`) : "";
  $("players").innerHTML = (s.players || []).map((p, i) =>
    `<li class="${i === s.current_player && s.winner === null ? "current" : ""}${p.out ? " out" : ""}"><span class="name" title="${escapeHtml(p.name)}">${escapeHtml(p.name)}</span>` +
    `<b class="${p.hand_count === 1 ? "one" : ""}">${p.hand_count}</b>` +
    (p.coins !== null && p.coins !== undefined ? ` ● ${p.coins}` : "") + `</li>`).join("") +
    (s.cup !== null && s.cup !== undefined ? `<li>cup <b>${s.cup}</b></li>` : "");
}

(async function start() {
  const info = await fetch(`/api/tables/${encodeURIComponent(TABLE)}`).then(r => r.json()).catch(() => ({}));
  await Cards.load(info.deck);
  followTable(TABLE, render);
})();
