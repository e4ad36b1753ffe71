// "Teach this deck" (issue 15): the next card to lay down, progress n of N, take (by itself once the
// card rests, or by hand), the card as taken, retake, skip, finish. The work is done by the JSON API
// of web/teach_api.py; this page only asks and shows. Taking on settle is this page's loop: it polls
// the camera's view and takes once per rest, so a closed page takes nothing more (and, its polls
// stopped, lets the table's camera watch the game again).
"use strict";
const TABLE = document.body.dataset.table;
const base = `/api/tables/${encodeURIComponent(TABLE)}`;
const $ = id => document.getElementById(id);
HostToken.takeFromHash();
const auth = () => ({"Authorization": `Bearer ${HostToken.get()}`});
const POLL_MS = 150;        // how often the view is asked for: a small part of the half second a card rests
let current = null, last = null, skipped = new Set(), cards = [];
const BACK = "back";        // the deck's back: taken as a card of its own (web/teach_api.py)
let tried = 0;              // the camera's rest last taken or tried: a card is taken once per rest
let busy = false;           // a take or retake on its way: the loop waits for it

function say(text) { $("teach-said").textContent = text; }

function show(p) {
  $("teach-progress").textContent = `${p.done} of ${p.total} cards taken` + (p.taught ? " · a taught deck is stored" : "");
  // the next card: the first one with no photo that was not skipped, then the deck's back (a card
  // face down), else the server's next
  const next = [...cards, BACK].find(c => !(c in p.photos) && !skipped.has(c)) || p.next;
  current = next;
  $("teach-next").textContent = next === BACK ? "any card" : next || "(every card has a photo)";
  $("teach-how").textContent = next === BACK ? "face down (the deck's back)" : "face up";
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

// rest: the settled rest to take from (auto), or undefined to take the latest picture now (by hand)
async function take(rest) {
  if (!current || busy) return;
  busy = true;
  try { await takeCard(current, rest); } finally { busy = false; }
}

async function takeCard(card, rest) {
  if (rest === undefined) say(`taking ${card}…`);
  const init = {method: "POST", headers: auth()};
  if (rest !== undefined) {
    init.headers = {...auth(), "Content-Type": "application/json"};
    init.body = JSON.stringify({rest});
  }
  const r = await fetch(`${base}/teach/${encodeURIComponent(card)}`, init);
  const body = await r.json().catch(() => ({}));
  if (!r.ok) { refused(card, body, r.status, rest !== undefined); return; }
  last = card;
  $("teach-retake").disabled = false;
  say(`✓ ${card} taken (photo ${body.photo})` + (rest !== undefined ? ": lift it and lay down the next card" : ""));
  show(body);
  showFace(card, body.photo);
}

function refused(card, body, status, automatic) {
  // the view moved between its rest and the take: the next rest is tried, nothing to say
  if (automatic && body.why === "moved") return;
  say(`not taken: ${body.error || status}`);
}

async function showFace(card, photo) {
  const r = await fetch(`${base}/teach/${encodeURIComponent(card)}/face.jpg`, {headers: auth(), cache: "no-store"});
  if (!r.ok) return;
  const img = $("teach-captured-img");
  if (img.src.startsWith("blob:")) URL.revokeObjectURL(img.src);
  img.src = URL.createObjectURL(await r.blob());
  $("teach-captured-name").textContent = `${card} · photo ${photo}`;
  $("teach-captured").hidden = false;
}

async function retake() {
  if (!last || busy) return;
  busy = true;
  try {
    const r = await fetch(`${base}/teach/${encodeURIComponent(last)}`, {method: "DELETE", headers: auth()});
    const body = await r.json().catch(() => ({}));
    if (!r.ok) { say(`not undone: ${body.error || r.status}`); return; }
    say(`${last}: last photo dropped, lift it and lay it down again`);
    skipped.delete(last);
    $("teach-retake").disabled = true;
    $("teach-captured").hidden = true;
    show(body);
    $("teach-next").textContent = last;
    current = last;
    last = null;
  } finally { busy = false; }
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
    body.back.photos ? `back: taught from ${body.back.photos} photo${body.back.photos > 1 ? "s" : ""}: a card face down is not read as a card`
                     : "back: not taught",
    ...(body.aspect ? [`shape: ${body.aspect.toFixed(2)} to 1, long side to short (learned: cards of this deck are looked for in it)`] : []),
    body.cameras ? "the table's camera reads with it now" : "no camera is running: a camera started for this deck reads with it",
  ].join("\n");
  say("✓ deck taught");
  load();
}

// -- taking on settle ------------------------------------------------------------------------------
function cameraLine(v) {
  if (!v.camera) return "no camera picture yet";
  if (v.settled) return "the view rests";
  return v.still_s > 0 ? "the view is settling…" : "the view is moving";
}

async function watch() {
  const r = await fetch(`${base}/teach-view`, {headers: auth(), cache: "no-store"});
  if (!r.ok) { $("teach-camera").textContent = r.status === 401 ? "needs the host token" : `camera: ${r.status}`; return; }
  const v = await r.json();
  $("teach-camera").textContent = cameraLine(v);
  if ($("teach-auto").checked && v.settled && v.rest !== tried && !busy) {
    tried = v.rest;
    await take(v.rest);
  }
}

async function loop() {
  try {
    // polled with auto off too: it shows the view's state and keeps the camera off the game (teach-view)
    if (current && HostToken.get()) await watch();
  } catch (e) {
    $("teach-camera").textContent = "the server cannot be reached";
  } finally {
    setTimeout(loop, POLL_MS);
  }
}

// A take by hand uses up the rest it was made in, so the loop does not take the same card again.
async function takeByHand() {
  if (!current || busy) return;
  say(`taking ${current}…`);
  const v = await fetch(`${base}/teach-view`, {headers: auth(), cache: "no-store"}).then(r => r.ok ? r.json() : null).catch(() => null);
  if (v && v.rest) tried = v.rest;
  await take();
}

$("teach-take").addEventListener("click", takeByHand);
$("teach-retake").addEventListener("click", retake);
$("teach-skip").addEventListener("click", () => { if (current) { skipped.add(current); load(); } });
$("teach-finish").addEventListener("click", finish);
document.addEventListener("keydown", e => { if (e.code === "Space" && e.target === document.body) { e.preventDefault(); takeByHand(); } });
$("teach-frame").src = `${base}/camera.mjpg`;
$("teach-frame").hidden = false;
load().catch(() => say("the server cannot be reached")).finally(loop);
