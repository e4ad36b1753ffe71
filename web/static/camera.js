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
