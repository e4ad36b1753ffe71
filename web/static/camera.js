// The camera page: the annotated MJPEG picture and the pipeline's status, for setting the camera up.
// With no picture (no camera, a camera that dropped out, the server gone) it says what to check
// instead of showing a broken image.
"use strict";
const TABLE = document.body.dataset.table;
const base = `/api/tables/${encodeURIComponent(TABLE)}`;
const $ = id => document.getElementById(id);
let streaming = false;

function missing(title, why, source) {
  $("frame").hidden = true;
  $("camera-missing").hidden = false;
  $("missing-title").textContent = title;
  $("missing-why").textContent = why || "";
  $("missing-source").textContent = source ? `this table reads “${source}”;` : "";
}

$("frame").addEventListener("error", () => {
  streaming = false;
  missing("No camera: here is what to check", "The picture stopped.", null);
});

async function poll() {
  const s = await fetch(`${base}/camera`).then(r => r.json()).catch(() => null);
  const out = $("status");
  if (!s) {
    out.textContent = "the server cannot be reached";
    streaming = false;
    missing("Connection lost, retrying", "The server does not answer: check that tableref is still running.", null);
    return;
  }
  const lines = [`state: ${s.state}`, `message: ${s.message}`];
  if (s.source) lines.push(`source: ${s.source}`, `events sent: ${s.events_sent}`);
  if (s.pipeline) lines.push(`pipeline: ${JSON.stringify(s.pipeline)}`);
  if (s.last_event) lines.push(`last event: ${JSON.stringify(s.last_event)}`, `result: ${s.last_result}`);
  out.textContent = lines.join("\n");
  const broken = ["none", "reconnecting", "error", "unavailable", "stopped", "ended"].includes(s.state);
  // a source that ended (a video played to its end) leaves its last picture worth seeing: keep it
  const over = s.state === "ended" || s.state === "stopped";
  if (s.has_frame && (!broken || over)) {
    $("camera-missing").hidden = true;
    $("frame").hidden = false;
    if (!streaming) { streaming = true; $("frame").src = `${base}/camera.mjpg`; }
  } else if (s.state === "none") {
    missing("No camera: this table has none", "It was started without a camera source.", null);
  } else if (s.state === "ended" || s.state === "stopped") {
    streaming = false;
    missing("The camera source ended", s.message, s.source);
  } else if (broken) {
    streaming = false;
    missing("No camera: here is what to check", s.message, s.source);
  } else {
    missing("Looking for the camera…", s.message, s.source);
  }
}
poll();
setInterval(poll, 2000);

// -- seats: the host taps the picture's edge where each player's arm comes in (docs/api.md, Seats) ----
HostToken.takeFromHash();                  // a host link to this page brings the token (kept as the phone page does)
const hostToken = () => HostToken.get();
let seatInfo = null, marking = null;       // marking: {players, next, seats} while the host taps

function drawSeats(seats) {
  // each name just inside the picture, against the edge it sits at
  const shift = v => (v < 0.1 ? 0 : v > 0.9 ? -100 : -50);
  $("seat-dots").innerHTML = (seats || []).map(s =>
    `<span class="seat-dot" style="left:${(s.x * 100).toFixed(2)}%;top:${(s.y * 100).toFixed(2)}%;` +
    `transform:translate(${shift(s.x)}%,${shift(s.y)}%)">${escapeHtml(s.player)}</span>`).join("");
}

function showSeats() {
  if (marking) {
    drawSeats(marking.seats);
    $("seat-prompt").textContent = `Tap the picture's edge where ${marking.players[marking.next]} sits ` +
      `(${marking.next + 1} of ${marking.players.length}).`;
  } else {
    drawSeats(seatInfo && seatInfo.seats);
    $("seat-prompt").textContent = seatInfo && seatInfo.marked
      ? `Seats marked for ${seatInfo.seats.map(s => s.player).join(", ")}.` : "";
  }
  $("camera-wrap").classList.toggle("marking", !!marking);
  $("cancel-seats").hidden = !marking;
  $("mark-seats").hidden = !!marking;
}

async function loadSeats() {
  seatInfo = await fetch(`${base}/seats`).then(r => r.json()).catch(() => null);
  const note = $("seats-note");
  note.hidden = !seatInfo || seatInfo.marked;
  note.textContent = seatInfo && seatInfo.note ? `${seatInfo.note}.` : "";
  $("seats").hidden = !hostToken();
  // before any are marked, the camera learns where each player's hand comes in from their plays
  const learned = seatInfo && !seatInfo.marked && seatInfo.suggested;
  $("use-learned").hidden = !learned || !!marking;
  if (learned) $("use-learned").textContent =
    `Use the seats the camera learned from the first plays (${learned.map(s => s.player).join(", ")})`;
  showSeats();
}

$("use-learned").addEventListener("click", async () => {
  const seats = seatInfo.suggested.map(s => ({player: s.player, x: s.x, y: s.y}));
  const r = await fetch(`${base}/seats`, {method: "PUT", body: JSON.stringify({seats}),
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${hostToken()}`}}).catch(() => null);
  const answer = r ? await r.json().catch(() => ({})) : {error: "the server cannot be reached"};
  await loadSeats();
  $("seat-prompt").textContent = r && r.ok ? `✓ Seats marked for ${answer.seats.map(s => s.player).join(", ")}.`
    : `✗ ${answer.error || "not stored"}.`;
});

$("mark-seats").addEventListener("click", () => {
  if (!seatInfo || !seatInfo.players.length) { $("seat-prompt").textContent = "Start a game first: seats are marked for its players."; return; }
  marking = {players: seatInfo.players, next: 0, seats: []};
  showSeats();
});
$("cancel-seats").addEventListener("click", () => { marking = null; showSeats(); });
$("clear-seats").addEventListener("click", async () => {
  const r = await fetch(`${base}/seats`, {method: "DELETE", headers: {"Authorization": `Bearer ${hostToken()}`}}).catch(() => null);
  $("seat-prompt").textContent = r && r.ok ? "Seats cleared: plays go to the player on turn." : "The seats were not cleared; try again.";
  marking = null;
  await loadSeats();
});

$("frame").addEventListener("click", async e => {
  if (!marking) return;
  const box = $("frame").getBoundingClientRect();
  const x = Math.min(1, Math.max(0, (e.clientX - box.left) / box.width));
  const y = Math.min(1, Math.max(0, (e.clientY - box.top) / box.height));
  marking.seats.push({player: marking.players[marking.next], x: +x.toFixed(4), y: +y.toFixed(4)});
  marking.next += 1;
  if (marking.next < marking.players.length) { showSeats(); return; }
  const body = {seats: marking.seats};
  marking = null;
  const r = await fetch(`${base}/seats`, {method: "PUT", body: JSON.stringify(body),
    headers: {"Content-Type": "application/json", "Authorization": `Bearer ${hostToken()}`}}).catch(() => null);
  const answer = r ? await r.json().catch(() => ({})) : {error: "the server cannot be reached"};
  await loadSeats();
  $("seat-prompt").textContent = r && r.ok ? `✓ Seats marked for ${answer.seats.map(s => s.player).join(", ")}.`
    : `✗ ${answer.error || "not stored"}. Mark them again.`;
});

loadSeats();
setInterval(() => { if (!marking) loadSeats(); }, 5000);
