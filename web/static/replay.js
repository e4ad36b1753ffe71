// The replay page: steps through one game of the table. Each step's state comes from the server
// (GET /api/tables/<id>/replay, the events fed again to the referee), so no rule runs here; this
// page only draws the state as the phone view does and moves between steps.
"use strict";

const TABLE = document.body.dataset.table;
const $ = id => document.getElementById(id);
let steps = [], at = 0, game = null, games = 0;

function problem(text) {
  $("problem").hidden = !text;
  $("problem").textContent = text || "";
}

async function fetchGame(query) {
  try {
    const r = await fetch(`/api/tables/${encodeURIComponent(TABLE)}/replay${query}`);
    const body = await r.json().catch(() => ({}));
    return r.ok ? body : {error: body.error || `the server answered ${r.status}`};
  } catch (e) {
    return {error: "the server cannot be reached; try again when the connection is back"};
  }
}

function playersHtml(s) {
  return (s.players || []).map((p, i) => {
    const cls = [i === s.current_player && s.winner === null ? "current" : "", p.out ? "out" : ""].join(" ");
    const coins = p.coins !== null && p.coins !== undefined ? `<span class="coins">● ${p.coins}</span>` : "";
    const score = p.score !== null && p.score !== undefined ? `<span class="tag">${p.score} pts</span>` : "";
    const tags = (i === s.dealer ? `<span class="tag">dealer</span>` : "") +
                 (p.hand_count === 1 ? `<span class="tag one">1 card!</span>` : "") +
                 (i === s.winner ? `<span class="tag one">winner</span>` : "") + (p.out ? `<span class="tag">out</span>` : "");
    return `<li class="${cls}" data-seat="${i}"><span class="name" title="${escapeHtml(p.name)}">` +
           `${i === s.current_player && s.winner === null ? "▶ " : ""}${escapeHtml(p.name)}</span>` +
           `${tags}${score}${coins}<span class="count" title="cards in hand"><i></i>${p.hand_count}</span></li>`;
  }).join("");
}

function show(i) {
  if (!steps.length) return;
  at = Math.max(0, Math.min(steps.length - 1, i));
  const step = steps[at], s = step.state;
  $("rules").textContent = s.rules || "";
  $("where").innerHTML = `<b>step ${at + 1} of ${steps.length}</b> · event ${step.n}` +
    (s.round ? ` · round ${s.round}` : "");
  $("ruling").innerHTML = `<span class="n">${step.n}.</span>${escapeHtml(step.summary)}`;
  Cards.showTop($("pile"), s.top_card);
  $("turn").textContent = turnWords(s);
  $("pending").innerHTML = s.pending_draw ? `<span class="pending">+${s.pending_draw} to draw</span>` : "";
  $("color").innerHTML = Cards.colorBadge(s.active_color);
  const cw = s.direction === "clockwise";
  $("direction").innerHTML = `<span class="arrow">${cw ? "↻" : "↺"}</span> ${cw ? "clockwise" : "counter-clockwise"}`;
  $("waiting").textContent = s.waiting_for && s.phase !== "over" ? `waiting for ${s.waiting_for}` : "";
  $("cup").innerHTML = s.cup !== null && s.cup !== undefined ? `<div class="cup">cup: <b>${s.cup}</b> coins</div>` : "";
  $("players").innerHTML = playersHtml(s);
  $("slider").value = String(at);
  $("first").disabled = $("prev").disabled = at === 0;
  $("next").disabled = $("last").disabled = at === steps.length - 1;
  // The address names the step, so it can be shared or reloaded where it is.
  history.replaceState(null, "", `${location.pathname}?game=${game}&step=${step.n}`);
}

function useGame(body, wantStep) {
  steps = body.steps || [];
  game = body.game; games = body.games;
  $("slider").max = String(Math.max(0, steps.length - 1));
  $("game").innerHTML = Array.from({length: games}, (_, k) =>
    `<option value="${k + 1}">${k + 1} of ${games}</option>`).join("");
  $("game").value = String(game);
  $("game-pick").hidden = games < 2;
  const last = steps.length ? steps[steps.length - 1].state : null;
  $("live-note").hidden = !last || last.phase === "over";
  if (body.problems && body.problems.length) problem(body.problems.join("; "));
  const k = steps.findIndex(st => st.n === wantStep);
  show(k >= 0 ? k : steps.length - 1);
}

async function loadGame(query, wantStep) {
  const body = await fetchGame(query);
  if (body.error) return body.error;
  useGame(body, wantStep);
  return null;
}

$("first").addEventListener("click", () => show(0));
$("prev").addEventListener("click", () => show(at - 1));
$("next").addEventListener("click", () => show(at + 1));
$("last").addEventListener("click", () => show(steps.length - 1));
$("slider").addEventListener("input", e => show(parseInt(e.target.value, 10)));
$("game").addEventListener("change", async e => {
  problem(null);
  const why = await loadGame(`?game=${encodeURIComponent(e.target.value)}`);
  if (why) { problem(why); $("game").value = String(game); }
});
$("reload").addEventListener("click", async () => {
  const end = at === steps.length - 1, n = steps[at] && steps[at].n;
  const why = await loadGame(`?game=${game}`, end ? undefined : n);
  if (why) problem(why);
});
document.addEventListener("keydown", e => {
  if (e.target.tagName === "INPUT" || e.target.tagName === "SELECT") return;
  const to = {ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: steps.length - 1}[e.key];
  if (to !== undefined) { e.preventDefault(); show(to); }
});

(async function start() {
  const info = await fetch(`/api/tables/${encodeURIComponent(TABLE)}`).then(r => r.json()).catch(() => ({}));
  await Cards.load(info.deck);
  const params = new URLSearchParams(location.search);
  const askedGame = params.get("game"), askedStep = params.get("step");
  const wantStep = askedStep !== null && /^\d+$/.test(askedStep) ? parseInt(askedStep, 10) : undefined;
  const query = askedGame !== null ? `?game=${encodeURIComponent(askedGame)}`
              : askedStep !== null ? `?step=${encodeURIComponent(askedStep)}` : "";
  let why = await loadGame(query, wantStep);
  if (why && query) {
    // A bad game or step in the address: say so, and show the latest game at its end instead.
    why = `${why}. Showing the latest game instead.`;
    const again = await loadGame("");
    problem(again ? again : why);
  } else if (why) {
    problem(why);
    $("where").textContent = "Nothing to replay.";
  } else if (wantStep !== undefined && steps[at].n !== wantStep) {
    problem(`there is no step ${wantStep} in game ${game} (its events are ${steps[0].n} to ${steps[steps.length - 1].n}); showing its last step`);
  }
})();
