// Card faces drawn from card ids and the deck data of `tableref cards` (GET /api/decks/<deck>):
// no images. Colour-blind safe: every colour also carries its own shape and letter.
"use strict";

const COLORS = {
  red:    {hex: "#d7263d", letter: "R", shape: "triangle"},
  yellow: {hex: "#f6c90e", letter: "Y", shape: "circle"},
  green:  {hex: "#1b9e4b", letter: "G", shape: "square"},
  blue:   {hex: "#1e5fd0", letter: "B", shape: "diamond"},
  orange: {hex: "#f27d0c", letter: "O", shape: "hexagon"},
  violet: {hex: "#7d3cc8", letter: "V", shape: "star"},
};

const SHAPES = {   // 20x20 boxes
  triangle: '<polygon points="10,2 19,18 1,18"/>',
  circle: '<circle cx="10" cy="10" r="8.5"/>',
  square: '<rect x="2.5" y="2.5" width="15" height="15"/>',
  diamond: '<polygon points="10,1 19,10 10,19 1,10"/>',
  hexagon: '<polygon points="5,2 15,2 19.5,10 15,18 5,18 0.5,10"/>',
  star: '<polygon points="10,1 12.6,7.2 19.5,7.6 14.2,12 15.9,18.8 10,15 4.1,18.8 5.8,12 0.5,7.6 7.4,7.2"/>',
};

const SYMBOLS = {skip: "⊘", reverse: "⇄", draw2: "+2", "wild-draw4": "+4", wild: "W"};

const Cards = {
  deck: null,          // {colors, cards: {id: card}}
  async load(deckId) {
    if (!deckId) return;
    try {
      const r = await fetch(`/api/decks/${encodeURIComponent(deckId)}`);
      if (!r.ok) return;
      const d = await r.json();
      this.deck = {id: d.deck, colors: d.colors, cards: Object.fromEntries(d.cards.map(c => [c.id, c]))};
    } catch (e) { /* the faces fall back to parsing the id */ }
  },
  info(id) {
    if (this.deck && this.deck.cards[id]) return this.deck.cards[id];
    // Without deck data: "<colour>-<symbol>" or a wild.
    const dash = id.indexOf("-");
    const color = dash > 0 ? id.slice(0, dash) : null;
    if (color && COLORS[color]) return {id, color, symbol: id.slice(dash + 1), kind: "number"};
    return {id, color: null, symbol: id, kind: "wild"};
  },
  colorInfo(name) { return COLORS[name] || {hex: "#777", letter: (name || "?")[0].toUpperCase(), shape: "circle"}; },
  shapeSvg(name, cls = "shape") {
    const c = this.colorInfo(name);
    return `<svg class="${cls}" viewBox="0 0 20 20" aria-hidden="true"><g fill="currentColor" stroke="#fff" stroke-width="1.2">${SHAPES[c.shape]}</g></svg>`;
  },
  // A colour badge: swatch + shape + letter + name, readable without seeing colour.
  colorBadge(name) {
    if (!name) return `<span class="color-badge none">no colour yet</span>`;
    const c = this.colorInfo(name);
    return `<span class="color-badge" style="--c:${c.hex}">${this.shapeSvg(name)}<b>${c.letter}</b><span>${name}</span></span>`;
  },
  label(card) {
    if (SYMBOLS[card.symbol]) return SYMBOLS[card.symbol];
    const s = String(card.symbol);
    return s.length <= 2 ? s : s.slice(0, 1).toUpperCase() + s.slice(1);
  },
  // The card as an element; `size` is a CSS width (the height follows the 2:3 shape).
  // Shows `id` as the top card of `pile`; a card that replaces another plays the landing animation
  // (not the first one drawn when the page opens).
  showTop(pile, id) {
    if (pile.topCard === id) return;
    const first = pile.topCard === undefined;
    pile.innerHTML = "";
    if (id) {
      const el = this.element(id);
      if (!first) el.classList.add("landed");
      pile.appendChild(el);
    }
    pile.topCard = id;
  },
  element(id, size) {
    const card = this.info(id);
    const el = document.createElement("div");
    el.className = "card" + (card.color ? "" : " wild") + (String(this.label(card)).length > 2 ? " long" : "");
    el.dataset.card = id;
    el.setAttribute("role", "img");
    el.setAttribute("aria-label", id.replace(/-/g, " "));
    if (size) el.style.setProperty("--w", size);
    const lbl = escapeHtml(this.label(card));
    let mark = "";
    if (card.color) {
      const c = this.colorInfo(card.color);
      el.style.setProperty("--c", c.hex);
      mark = `<span class="cb">${this.shapeSvg(card.color)}<b>${c.letter}</b></span>`;
    } else {
      const cols = (this.deck && this.deck.colors.length ? this.deck.colors : ["red", "yellow", "green", "blue"]);
      const step = 360 / cols.length;
      const stops = cols.map((n, i) => `${this.colorInfo(n).hex} ${i * step}deg ${(i + 1) * step}deg`).join(",");
      el.style.setProperty("--wheel", `conic-gradient(${stops})`);
    }
    const extra = card.food ? `<span class="food">${escapeHtml(card.food)}</span>` : "";
    el.innerHTML = `<span class="corner tl">${lbl}</span><span class="oval"><span class="sym">${lbl}</span></span>` +
                   `<span class="corner br">${lbl}</span>${mark}${extra}`;
    return el;
  },
};

function escapeHtml(s) {
  return String(s).replace(/[&<>"']/g, ch => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;"}[ch]));
}

// One EventSource per page; the browser reconnects by itself and sends Last-Event-ID.
function followTable(tableId, onState, onLink) {
  let source = null;
  function open() {
    source = new EventSource(`/api/tables/${encodeURIComponent(tableId)}/stream`);
    source.onopen = () => onLink && onLink(true);
    source.onmessage = ev => { try { onState(JSON.parse(ev.data)); } catch (e) { console.error(e); } };
    source.onerror = () => {
      onLink && onLink(false);
      if (source.readyState === EventSource.CLOSED) setTimeout(open, 2000);  // the server ended it
    };
  }
  open();
}

function turnWords(state) {
  const p = state.players || [];
  if (state.phase === "setup") return "No game yet";
  if (state.winner !== null && state.winner !== undefined) return `${p[state.winner].name} wins!`;
  const cur = p[state.current_player];
  return cur ? `${cur.name}'s turn` : "";
}

// -- the host token, shared by the lobby and the host page --------------------------------------------
// Kept in localStorage, never in a URL the server sees. A #token= link moves it there at once; when
// the browser held a different one, the page is told so (it says it), never silently.
const HostToken = {
  KEY: "tableref.host-token",
  get() { return localStorage.getItem(this.KEY); },
  set(value) { localStorage.setItem(this.KEY, value); },
  // The token in a pasted text: the token itself, or a host link ending in #token=...
  parse(text) {
    const t = String(text || "").trim();
    const m = t.match(/#token=([^&\s]+)/);
    return m ? decodeURIComponent(m[1]) : t;
  },
  // Takes a #token= out of the address (so it is not left in the history or a shared screenshot)
  // and stores it, unless this browser already holds a different token: that one is kept until the
  // host chooses (issue 17: a link must not silently take the place of the host's own token).
  // Returns {token, pending} (pending: the link's token waits for that choice) or null.
  takeFromHash() {
    const m = location.hash.match(/token=([^&]+)/);
    if (!m) return null;
    const given = decodeURIComponent(m[1]), old = this.get();
    history.replaceState(null, "", location.pathname + location.search);
    const pending = old !== null && old !== "" && old !== given;
    if (!pending) this.set(given);
    return {token: given, pending};
  },
  // "ok", "refused" (401/403) or "unreachable"
  async check(value) {
    try {
      const r = await fetch("/api/auth", {headers: {"Authorization": `Bearer ${value === undefined ? this.get() : value}`}});
      if (r.ok) return "ok";
      return r.status === 401 || r.status === 403 ? "refused" : "unreachable";
    } catch (e) { return "unreachable"; }
  },
};

// -- commands: every tap carries an event_id, the table version it was made against, and when it
// was sent (this page's monotonic clock), so the server applies it once, refuses it when the table
// moved on meanwhile, and drops it when it waited past its deadline (docs/api.md, issue 17).
const Command = {
  TTL_MS: 8000,
  session: (() => {
    // crypto.getRandomValues works on plain http:// too (randomUUID needs a secure context)
    const b = new Uint8Array(12);
    crypto.getRandomValues(b);
    return Array.from(b, x => x.toString(16).padStart(2, "0")).join("");
  })(),
  seq: 0,
  // The event with its command fields; `version` is the state's version (omitted when unknown).
  wrap(event, version) {
    const c = {...event, event_id: `${this.session}-${++this.seq}`, session: this.session,
               sent_ms: Math.round(performance.now() * 10) / 10, ttl_ms: this.TTL_MS};
    if (typeof version === "number") c.version = version;
    return c;
  },
};
