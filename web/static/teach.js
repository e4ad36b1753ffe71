// "Teach this deck" (issue 15): the next card to lay down, progress n of N, take, retake, skip,
// finish. The work is done by the JSON API of web/teach_api.py; this page only asks and shows.
"use strict";
const TABLE = document.body.dataset.table;
const base = `/api/tables/${encodeURIComponent(TABLE)}`;
const $ = id => document.getElementById(id);
HostToken.takeFromHash();
const auth = () => ({"Authorization": `Bearer ${HostToken.get()}`});
let current = null, last = null, skipped = new Set(), cards = [];

function say(text) { $("teach-said").textContent = text; }

function show(p) {
  $("teach-progress").textContent = `${p.done} of ${p.total} cards taken` + (p.taught ? " · a taught deck is stored" : "");
  // the next card: the first one with no photo that was not skipped, else the server's next
  const next = cards.find(c => !(c in p.photos) && !skipped.has(c)) || p.next;
  current = next;
  $("teach-next").textContent = next || "(every card has a photo)";
}

async function load() {
  if (!HostToken.get()) $("teach-auth").hidden = false;
  if (!cards.length) {
    const rules = await fetch(`${base}`).then(r => r.json()).catch(() => null);
    const deckId = rules && rules.deck;
    if (deckId) {
      const d = await fetch(`/api/decks/${encodeURIComponent(deckId)}`).then(r => r.json()).catch(() => null);
      if (d && d.cards) cards = d.cards.map(c => c.id);
    }
  }
  const p = await fetch(`${base}/teach`).then(r => r.json());
  show(p);
}

async function take() {
  if (!current) return;
  const card = current;
  say(`taking ${card}…`);
  const r = await fetch(`${base}/teach/${encodeURIComponent(card)}`, {method: "POST", headers: auth()});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { say(`not taken: ${body.error || r.status}`); return; }
  last = card;
  $("teach-retake").disabled = false;
  say(`✓ ${card} taken (photo ${body.photo})`);
  show(body);
}

async function retake() {
  if (!last) return;
  const r = await fetch(`${base}/teach/${encodeURIComponent(last)}`, {method: "DELETE", headers: auth()});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { say(`not undone: ${body.error || r.status}`); return; }
  say(`${last}: last photo dropped, lay it down again`);
  skipped.delete(last);
  $("teach-retake").disabled = true;
  current = last;
  show(body);
  $("teach-next").textContent = last;
  current = last;
  last = null;
}

async function finish() {
  say("teaching the deck from the photos taken…");
  const r = await fetch(`${base}/teach-finish`, {method: "POST", headers: auth()});
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { say(`not taught: ${body.error || r.status}`); return; }
  const loo = body.leave_one_out;
  $("teach-report").hidden = false;
  $("teach-report").textContent = [
    `taught ${body.taught.length} of ${body.cards} cards`,
    `not taught (read by the built-in recognizer): ${body.missing.length}`,
    ...body.refused.map(x => `refused ${x.photo}: ${x.why}`),
    loo.total ? `leave-one-photo-out: ${loo.right}/${loo.total} read right` : "leave-one-photo-out: no card has two photos",
  ].join("\n");
  say("✓ deck taught");
  load();
}

$("teach-take").addEventListener("click", take);
$("teach-retake").addEventListener("click", retake);
$("teach-skip").addEventListener("click", () => { if (current) { skipped.add(current); load(); } });
$("teach-finish").addEventListener("click", finish);
document.addEventListener("keydown", e => { if (e.code === "Space" && e.target === document.body) { e.preventDefault(); take(); } });
$("teach-frame").src = `${base}/camera.mjpg`;
$("teach-frame").hidden = false;
load();
