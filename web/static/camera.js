// The camera page: the annotated MJPEG picture and the pipeline's status, for setting the camera up.
"use strict";
const TABLE = document.body.dataset.table;
const base = `/api/tables/${encodeURIComponent(TABLE)}`;
let streaming = false;
async function poll() {
  const s = await fetch(`${base}/camera`).then(r => r.json()).catch(() => null);
  const out = document.getElementById("status");
  if (!s) { out.textContent = "the server cannot be reached"; return; }
  const lines = [`state: ${s.state}`, `message: ${s.message}`];
  if (s.source) lines.push(`source: ${s.source}`, `events sent: ${s.events_sent}`);
  if (s.pipeline) lines.push(`pipeline: ${JSON.stringify(s.pipeline)}`);
  if (s.last_event) lines.push(`last event: ${JSON.stringify(s.last_event)}`, `result: ${s.last_result}`);
  out.textContent = lines.join("\n");
  if (s.has_frame && !streaming) { streaming = true; document.getElementById("frame").src = `${base}/camera.mjpg`; }
}
poll();
setInterval(poll, 2000);
