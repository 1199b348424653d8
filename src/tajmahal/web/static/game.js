// tajmahal serve: the game page. The board comes once per connection; each state message
// says what changed on it (palaces, tiles, the province visited), the seat's hand and moves,
// the table and the new events; the page updates its board itself. Every message it sends
// carries the link's token.
"use strict";
(function () {
  const parts = location.pathname.split("/");
  const role = parts[1];  // "play" or "watch"
  const token = parts[2];
  const body = document.body;
  const $ = id => document.getElementById(id);
  const SVG = "http://www.w3.org/2000/svg";
  const HOUSE = [[-7, 7], [7, 7], [7, -1.5], [0, -8.5], [-7, -1.5]];
  const CROWN = [[-8, 5], [8, 5], [8, -6], [4, -1], [0, -8], [-4, -1], [-8, -6]];
  const HIT = 22;  // a city's hit area: at least this radius in CSS px (44 px across)
  const SYMBOLS = ["vizier", "general", "monk", "princess", "grand_mogul", "elephant"];
  let socket = null;
  let state = null;        // the latest state message
  let board = null;        // the live board: {svg, cities, colors}
  let retry = 500;
  let selected = null;     // the move waiting for its confirm tap
  let card = null;         // the hand card selected
  let hinted = null;       // the hinted move
  let view = null;         // the board's viewBox now [x, y, w, h]
  let whole = null;        // ... and the whole board's
  let rules = {};          // rule id -> text (the how-to-play page's)
  let log = new Map();     // decision -> {decision, seat, lines}: the whole game's events
  let autoZoomed = null;   // the view before the board zoomed to a palace choice by itself
  const COLOR_NAMES = ["red", "blue", "green", "amber", "purple"];  // the seats' palaces
  const BASE = "tajmahal.since." + token;  // the board when this seat last moved
  const store = {
    get(key) { try { return localStorage.getItem(key); } catch (e) { return null; } },
    set(key, value) { try { localStorage.setItem(key, value); } catch (e) { /* private */ } },
  };

  function send(message) {
    if (!socket || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(Object.assign({token: token}, message)));
    return true;
  }
  function seatName(seat) {
    if (!state || seat === null || seat === undefined) return "";
    const bot = state.humans.includes(seat) ? "" : " (bot)";
    return "seat " + (seat + 1) + " " + state.players[seat] + bot;
  }
  function shortName(seat) {
    return seat === state.seat ? "you" : state.players[seat];
  }
  function el(tag, text, cls) {
    const node = document.createElement(tag);
    if (text !== undefined && text !== null) node.textContent = text;
    if (cls) node.className = cls;
    return node;
  }
  function words(id) { return id.replace(/_/g, " "); }

  // ------------------------------------------------------------------ rule codes
  fetch("/static/rules.json").then(r => r.ok ? r.json() : {}).then(data => { rules = data.rules || {}; })
    .catch(() => {});
  // a text with rule codes (W3, K5-K8) as links to the how-to-play page, each with its rule
  function withRules(text) {
    const span = document.createElement("span");
    const pattern = /\b([SPWKFGETCVIR]\d{1,2})(?:[-\u2013]([SPWKFGETCVIR]\d{1,2}))?\b/g;
    let at = 0, match;
    while ((match = pattern.exec(text)) !== null) {
      span.append(text.slice(at, match.index));
      const link = el("a", match[0], "rule");
      link.href = "/how-to-play#" + match[1];
      link.target = "_blank";
      link.rel = "noopener";
      const said = rules[match[1]];
      if (said) link.title = match[1] + ": " + said;
      span.append(link);
      at = match.index + match[0].length;
    }
    span.append(text.slice(at));
    return span;
  }

  // ------------------------------------------------------------------ the board
  function setBoard(data) {
    board = data;
    $("board").innerHTML = data.svg;
    const svg = $("board").querySelector("svg");
    svg.removeAttribute("width");
    svg.removeAttribute("height");
    whole = svg.getAttribute("viewBox").split(/[ ,]+/).map(Number);
    view = view || whole.slice();
    svg.setAttribute("viewBox", view.join(" "));
    const hits = document.createElementNS(SVG, "g");
    hits.id = "hits";
    for (const [id, [x, y, name]] of Object.entries(data.cities)) {
      const hit = document.createElementNS(SVG, "circle");
      hit.setAttribute("class", "hit");
      hit.setAttribute("cx", x);
      hit.setAttribute("cy", y);
      hit.setAttribute("r", 12);
      hit.dataset.city = id;
      const tip = document.createElementNS(SVG, "title");
      tip.textContent = name;
      hit.appendChild(tip);
      hits.appendChild(hit);
    }
    const marks = document.createElementNS(SVG, "g");
    marks.id = "marks";  // above the palaces: the legal cities' highlight, what changed
    svg.appendChild(marks);
    svg.appendChild(hits);
    const first = svg.querySelector("g.city circle");
    board.cityRadius = first ? Number(first.getAttribute("r")) || 6 : 6;
    svg.addEventListener("pointerdown", pointerDown);
    svg.addEventListener("pointermove", pointerMove);
    svg.addEventListener("pointerup", pointerUp);
    svg.addEventListener("pointercancel", pointerUp);
    svg.addEventListener("wheel", wheel, {passive: false});
    sizeHits();
  }
  function scale() {  // CSS px per board unit
    const svg = $("board").querySelector("svg");
    if (!svg || !view) return 1;
    const box = svg.getBoundingClientRect();
    return box.width ? Math.min(box.width / view[2], box.height / view[3]) : 1;
  }
  function sizeHits() {
    const r = Math.max(12, HIT / scale());
    for (const hit of document.querySelectorAll("#hits .hit")) hit.setAttribute("r", r.toFixed(1));
    sizeMarkers();
  }
  const MARKER_PX = 7;  // a city's marker is at least this radius on screen (14 px across)
  function markerFactor() {
    return board ? Math.max(1, MARKER_PX / ((board.cityRadius || 6) * scale())) : 1;
  }
  function grow(node, x, y, factor) {
    if (factor <= 1.01) node.removeAttribute("transform");
    else node.setAttribute("transform", "translate(" + x + " " + y + ") scale(" + factor.toFixed(2) +
                           ") translate(" + (-x) + " " + (-y) + ")");
  }
  function sizeMarkers() {  // markers, palaces and rings readable at every zoom
    if (!board) return;
    const factor = markerFactor();
    for (const group of document.querySelectorAll("#board g.city[data-id], #board g.piece[data-city], #marks g[data-city]")) {
      const at = board.cities[group.dataset.id || group.dataset.city];
      if (at) grow(group, at[0], at[1], factor);
    }
  }
  function points(x, y, shape) {
    return shape.map(([dx, dy]) => (x + dx) + "," + (y + dy)).join(" ");
  }
  function showBoard(shown) {
    const svg = $("board").querySelector("svg");
    if (!svg || !board) return;
    for (const path of svg.querySelectorAll(".province-outline"))
      path.setAttribute("visibility", path.dataset.province === shown.province ? "visible" : "hidden");
    for (const tile of svg.querySelectorAll("g.province-tile"))
      tile.style.display = shown.tiles.includes(tile.dataset.province) ? "" : "none";
    for (const tile of svg.querySelectorAll("g.bonus"))
      tile.style.display = shown.bonus.includes(tile.dataset.city) ? "" : "none";
    const layer = svg.querySelector("#palaces");
    layer.replaceChildren();
    for (const [city, normal, crown] of shown.palaces) {
      const [x, y, name] = board.cities[city];
      const pieces = [[normal, HOUSE, 0, 0, "palace", "palace"],
                      [crown, CROWN, normal === null ? 0 : 10, normal === null ? 0 : -12,
                       "crown-palace", "crown palace"]];
      const holder = document.createElementNS(SVG, "g");
      holder.setAttribute("class", "piece");
      holder.dataset.city = city;
      layer.appendChild(holder);
      for (const [owner, shape, dx, dy, cls, what] of pieces) {
        if (owner === null) continue;
        const at = points(x + dx, y + dy, shape);
        const rim = document.createElementNS(SVG, "polygon");
        rim.setAttribute("points", at);
        rim.setAttribute("fill", "none");
        rim.setAttribute("stroke", "#fbf6e9");
        rim.setAttribute("stroke-width", "4");
        holder.appendChild(rim);
        const piece = document.createElementNS(SVG, "polygon");
        piece.setAttribute("class", cls + " seat-" + owner);
        piece.dataset.city = city;
        piece.setAttribute("points", at);
        piece.setAttribute("fill", board.colors[owner % board.colors.length]);
        piece.setAttribute("stroke", "#2f2419");
        piece.setAttribute("stroke-width", "1.3");
        const tip = document.createElementNS(SVG, "title");
        tip.textContent = seatName(owner) + " (" + colorName(owner) + "): " + what + " in " + name;
        piece.appendChild(tip);
        holder.appendChild(piece);
      }
    }
    const playable = new Set(state.legal.filter(m => /^(palace|crown) /.test(m)).map(m => m.split(" ")[1]));
    for (const group of svg.querySelectorAll("g.city[data-id]"))
      group.classList.toggle("playable", playable.has(group.dataset.id));
    for (const hit of svg.querySelectorAll("#hits .hit"))
      hit.classList.toggle("playable", playable.has(hit.dataset.city));
    const marks = svg.querySelector("#marks");
    marks.replaceChildren();
    const changed = changedSince(shown);
    for (const city of changed.cities) marks.appendChild(ring(city, "changed-ring", 15, "changed since your move"));
    for (const city of playable) marks.appendChild(ring(city, "legal-ring", 11, "you may place here"));
    for (const number of changed.tiles) {
      const tile = svg.querySelector('g.province-tile[data-number="' + number + '"]');
      const box = tile && tile.getBBox ? tile.getBBox() : null;
      if (!box || !box.width) continue;
      const rect = document.createElementNS(SVG, "rect");
      rect.setAttribute("class", "changed-ring");
      for (const [k, v] of [["x", box.x - 3], ["y", box.y - 3], ["width", box.width + 6], ["height", box.height + 6], ["rx", 4]])
        rect.setAttribute(k, v);
      marks.appendChild(rect);
    }
    sizeMarkers();
    describeBoard(shown, changed);
    markHinted();
  }
  function ring(city, cls, r, what) {  // a ring around a city, above its palaces
    const [x, y, name] = board.cities[city];
    const group = document.createElementNS(SVG, "g");
    group.dataset.city = city;
    group.setAttribute("class", cls + "-group");
    for (const [extra, width] of [["ring-edge", 6], [cls, 3.5]]) {
      const circle = document.createElementNS(SVG, "circle");
      circle.setAttribute("class", extra);
      circle.setAttribute("cx", x);
      circle.setAttribute("cy", y);
      circle.setAttribute("r", r);
      circle.setAttribute("stroke-width", width);
      group.appendChild(circle);
    }
    const tip = document.createElementNS(SVG, "title");
    tip.textContent = name + ": " + what;
    group.appendChild(tip);
    return group;
  }
  // ------------------------------------------------------------------ since your move
  function baseline() {  // {decision, shown, city}: the board when this seat last moved
    if (!state || state.seat === null) return null;
    try {
      const kept = JSON.parse(store.get(BASE) || "null");
      return kept && typeof kept.decision === "number" && kept.decision <= state.decision ? kept : null;
    } catch (e) { return null; }
  }
  function changedSince(shown) {  // the palaces and tiles changed by the others since my move
    const base = baseline();
    const result = {cities: [], tiles: []};
    if (!base || !base.shown) return result;
    const before = new Map(base.shown.palaces.map(([city, n, c]) => [city, n + "/" + c]));
    for (const [city, n, c] of shown.palaces)
      if (before.get(city) !== n + "/" + c && city !== base.city && board.cities[city]) result.cities.push(city);
    for (const city of base.shown.bonus)
      if (!shown.bonus.includes(city) && city !== base.city && !result.cities.includes(city)) result.cities.push(city);
    const numbers = new Map();
    for (const tile of document.querySelectorAll("#board g.province-tile"))
      numbers.set(tile.dataset.province, tile.dataset.number);
    for (const province of base.shown.tiles)
      if (!shown.tiles.includes(province) && numbers.get(province)) result.tiles.push(numbers.get(province));
    return result;
  }
  function sinceLines() {  // what the others did since this seat's last move, in words
    if (!state || state.seat === null) return [];
    const base = baseline();
    const mine = [...log.values()].filter(e => e.seat === state.seat).map(e => e.decision);
    const after = base ? base.decision + 1 : (mine.length ? Math.max(...mine) : null);
    if (after === null) return [];
    return [...log.values()].filter(e => e.decision > after && e.seat !== state.seat)
      .sort((a, b) => a.decision - b.decision).flatMap(e => e.lines)
      .map(line => line.replace(/ \([A-Z]\d{1,2}(?:[-\u2013,][^)]*)?\)$/, ""));
  }
  function renderSince() {
    const box = $("since");
    const all = sinceLines();
    let lines = all.filter(line => / (wins|places|takes province tile|takes the .* bonus tile)/.test(line));  // what counts
    if (!lines.length) lines = all;
    box.replaceChildren();
    if (!lines.length) return;
    box.append(el("strong", "Since your move: "));
    const shown = lines.slice(0, 4).map(line => line.replace(/^seat \d+ \(([^)]*)\)/, "$1"));
    box.append(shown.join("; ") + (lines.length > 4 ? "; and " + (lines.length - 4) + " more (see What happened)" : ""));
  }
  function colorName(seat) { return COLOR_NAMES[seat % COLOR_NAMES.length]; }
  function describeBoard(shown, changed) {  // the board in words: provinces, cities, palaces
    const box = $("board-words");
    if (!board.provinces) return;
    const owners = new Map(shown.palaces.map(([city, n, c]) => [city, [n, c]]));
    const list = el("ul");
    const visited = board.provinces.find(([id]) => id === shown.province);
    const order = visited ? [visited, ...board.provinces.filter(p => p !== visited)] : board.provinces;
    for (const [id, name, cities] of order) {
      const item = el("li");
      item.append(el("strong", name + (id === shown.province ? " (visited now)" : "") +
                     (shown.tiles.includes(id) ? "" : ", province tile taken") + ": "));
      item.append(cities.map(city => {
        const [, , cityName] = board.cities[city];
        const [n, c] = owners.get(city) || [null, null];
        const parts = [];
        if (n !== null && n !== undefined) parts.push("palace of " + seatName(n) + " (" + colorName(n) + ")");
        if (c !== null && c !== undefined) parts.push("crown palace of " + seatName(c) + " (" + colorName(c) + ")");
        if (shown.bonus.includes(city)) parts.push("bonus tile");
        if (changed.cities.includes(city)) parts.push("changed since your move");
        if (state.legal.some(m => m === "palace " + city || m === "crown " + city)) parts.push("you may place here");
        return cityName + (parts.length ? " (" + parts.join(", ") + ")" : ", empty");
      }).join("; "));
      list.append(item);
    }
    box.replaceChildren(list);
  }
  // pan (one pointer, once it moved), pinch (two), ctrl+wheel; a tap picks the nearest city
  const pointers = new Map();
  let dragged = false, pinch = null;
  function boardPoint(event) {
    const svg = $("board").querySelector("svg");
    const box = svg.getBoundingClientRect();
    const s = scale();
    const left = box.left + (box.width - view[2] * s) / 2, top = box.top + (box.height - view[3] * s) / 2;
    return [view[0] + (event.clientX - left) / s, view[1] + (event.clientY - top) / s];
  }
  function setView(next) {
    const w = Math.min(whole[2], Math.max(whole[2] / 8, next[2]));
    const h = w * whole[3] / whole[2];
    const x = Math.min(whole[0] + whole[2] - w, Math.max(whole[0], next[0] + (next[2] - w) / 2));
    const y = Math.min(whole[1] + whole[3] - h, Math.max(whole[1], next[1] + (next[3] - h) / 2));
    view = [x, y, w, h];
    const svg = $("board").querySelector("svg");
    svg.setAttribute("viewBox", view.join(" "));
    svg.classList.toggle("zoomed", w < whole[2] - 1);
    sizeHits();
  }
  function zoom(factor, at) {
    if (!view) return;
    const [cx, cy] = at || [view[0] + view[2] / 2, view[1] + view[3] / 2];
    const w = view[2] / factor, h = view[3] / factor;
    setView([cx - (cx - view[0]) / factor, cy - (cy - view[1]) / factor, w, h]);
  }
  function pointerDown(event) {
    pointers.set(event.pointerId, [event.clientX, event.clientY]);
    if (pointers.size === 1) dragged = false;
    if (pointers.size === 2) {
      const [a, b] = [...pointers.values()];
      pinch = Math.hypot(a[0] - b[0], a[1] - b[1]);
      dragged = true;
    }
  }
  function pointerMove(event) {
    const last = pointers.get(event.pointerId);
    if (!last) return;
    const now = [event.clientX, event.clientY];
    pointers.set(event.pointerId, now);
    if (pointers.size === 2 && pinch) {
      const [a, b] = [...pointers.values()];
      const apart = Math.hypot(a[0] - b[0], a[1] - b[1]);
      if (apart > 0) zoom(apart / pinch);
      pinch = apart;
      return;
    }
    const dx = now[0] - last[0], dy = now[1] - last[1];
    if (!dragged && Math.hypot(dx, dy) < 6) { pointers.set(event.pointerId, last); return; }
    if (view[2] >= whole[2] - 1) return;  // the whole board: the page scrolls
    dragged = true;
    const s = scale();
    setView([view[0] - dx / s, view[1] - dy / s, view[2], view[3]]);
  }
  function pointerUp(event) {
    const was = pointers.has(event.pointerId);
    pointers.delete(event.pointerId);
    if (pointers.size < 2) pinch = null;
    if (was && !dragged && event.type === "pointerup") boardTapped(event);
  }
  function wheel(event) {
    if (!event.ctrlKey && view[2] >= whole[2] - 1) return;
    event.preventDefault();
    zoom(event.deltaY < 0 ? 1.25 : 0.8, boardPoint(event));
  }
  const TILES = {
    taj_mahal: "the Taj Mahal tile: a palace on this fortress scores 4 points (K1)",
    points: "a +2 tile: a palace on this fortress scores 2 points (K2)",
    card: "a +1 card tile: a palace on this fortress draws the top card of the deck (K3)",
    commodity: "a commodity tile: a palace here takes it, 1 point plus 1 per same commodity you own; it counts for province tiles later (K4, K5)",
  };
  function explainTile(target) {  // a tap (or click) on a tile says what it is
    const tile = target.closest && target.closest("g.bonus, g.province-tile");
    if (!tile) return false;
    const note = $("board-note");
    note.replaceChildren();
    if (tile.classList.contains("bonus")) {
      const [, , name] = board.cities[tile.dataset.city] || [0, 0, ""];
      note.append(el("strong", name + ": "), withRules(TILES[tile.dataset.kind] || ""));
    } else {
      note.append(el("strong", "Province tile " + tile.dataset.number + ": "),
                  withRules("won with the elephant majority when this province is visited; it scores 1 point plus 1 per same commodity you own, for each commodity on it (W9, K5)"));
    }
    return true;
  }
  function boardTapped(event) {
    if (explainTile(event.target) && !state.legal.some(m => /^(palace|crown) /.test(m))) return;
    if (!myTurn()) return;
    const [x, y] = boardPoint(event);
    const reach = Math.max(12, HIT / scale());
    let best = null, distance = Infinity;
    state.legal.forEach((move, k) => {
      const city = /^(palace|crown) /.test(move) ? move.split(" ")[1] : null;
      if (!city || !board.cities[city]) return;
      const [cx, cy] = board.cities[city];
      const d = Math.hypot(cx - x, cy - y);
      if (d < distance) { distance = d; best = k; }
    });
    if (best !== null && distance <= reach) choose(best);
    else if (state.legal.some(m => /^(palace|crown) /.test(m)))
      $("error").textContent = "Tap one of the highlighted (blue-ringed) cities (or pick it from the list).";
  }

  // ------------------------------------------------------------------ moves
  function myTurn() {
    return state && state.seat !== null && state.turn === state.seat && !state.over &&
      state.legal.length > 0 && connected();
  }
  function connected() { return socket && socket.readyState === WebSocket.OPEN; }
  function undoable() {  // a move can be taken back: alone against bots
    return state && state.humans.length === 1;
  }
  function label(k) { return state.labels[k] ? state.labels[k][0] : state.legal[k]; }
  function choose(k) {  // a move asked for: played at once where undo can take it back
    if (!myTurn()) return;
    if (undoable() || selected === k) { play(k); return; }  // a second tap on it plays it
    selected = k;
    $("confirm-text").textContent = label(k) + "?";
    $("confirm").hidden = false;
    for (const button of document.querySelectorAll("#moves button"))
      button.classList.toggle("chosen", Number(button.dataset.index) === k);
    $("confirm-yes").focus({preventScroll: true});
  }
  function cancel() {
    selected = null;
    $("confirm").hidden = true;
    for (const button of document.querySelectorAll("#moves button.chosen")) button.classList.remove("chosen");
  }
  function play(k) {
    if (!myTurn()) return;
    $("error").textContent = "";
    $("hint-text").textContent = "";
    cancel();
    for (const button of document.querySelectorAll("#moves button, #hand button")) button.disabled = true;
    const move = state.legal[k];
    // the board now, for "since your move" (the rings and the line until the next move)
    store.set(BASE, JSON.stringify({decision: state.decision, shown: state.shown,
                                    city: /^(palace|crown) /.test(move) ? move.split(" ")[1] : null}));
    send({type: "move", decision: state.decision + 1, move: move});
  }
  function cardUses(text) {
    const uses = [];
    state.legal.forEach((move, k) => {
      if (move.split(" ").slice(1).includes(text)) uses.push(k);
    });
    return uses;
  }
  function whyNot(text) {  // why a card of the hand cannot be played now
    if (state.legal.some(m => /^(palace|crown) /.test(m))) return "First choose a city for your palace: cards are played after.";
    if (state.legal.some(m => m.startsWith("take "))) return "Now you take a card from the supply: cards are played on your next turn.";
    const color = text.split(":")[0];
    const played = state.legal.filter(m => m.startsWith("play ")).map(m => m.split(" ")[1].split(":")[0]);
    if (color === "white" || color === "special")
      return "A " + (color === "white" ? "white" : "special") + " card goes with a colored card, and not now: " +
        (played.length ? "no move of this turn may add it (P1)." : "you can only withdraw (P1).");
    if (played.length && !played.includes(color))
      return "Your color this visit is " + played[0] + ": a " + color + " card cannot be played now (P2).";
    return "No move of this turn uses this card.";
  }
  function cardPicked(text, button) {  // a tap selects (or says why not); a second one plays
    if (!myTurn()) return;
    const uses = cardUses(text);
    $("card-note").textContent = "";
    if (!uses.length) {
      $("card-note").textContent = cardName(text) + ": " + whyNot(text);
      button.classList.add("unplayable");
      return;
    }
    if (card === text) {  // the second tap on the selected card
      if (uses.length === 1) { choose(uses[0]); return; }
      $("card-note").textContent = cardName(text) + " has " + uses.length + " moves: tap one of the lit moves.";
      return;
    }
    card = text;
    for (const other of document.querySelectorAll("#hand .card")) {
      other.classList.toggle("selected", other === button);
      other.setAttribute("aria-pressed", other === button ? "true" : "false");
    }
    for (const b of document.querySelectorAll("#moves button"))
      b.classList.toggle("lit", uses.includes(Number(b.dataset.index)));
    for (const group of document.querySelectorAll("#moves .group"))
      group.classList.toggle("faded", !group.querySelector("button.lit"));
    $("card-note").textContent = cardName(text) + (uses.length === 1 ?
      ": tap it again (or Enter, or its lit move) to play it." : ": " + uses.length + " moves, lit below: tap one to play it.");
  }
  function moveButton(k) {
    const [text, , , kind, detail] = state.labels[k] || [state.legal[k], "", null, "", null];
    const button = el("button", null, "move " + kind);
    button.dataset.move = state.legal[k];
    button.dataset.index = String(k);
    button.append(el("span", text, "label"));
    if (detail) button.append(el("span", detail, "detail"));
    if (kind === "play" || kind === "take") button.classList.add(state.labels[k][1]);
    button.addEventListener("click", () => choose(k));
    return button;
  }
  function focusMove(step, start) {  // the keyboard among the moves: the lit ones first
    const buttons = [...document.querySelectorAll("#moves button:enabled")];
    if (!buttons.length) return;
    const lit = buttons.filter(b => b.classList.contains("lit"));
    if (start) { (lit[0] || buttons[0]).focus(); return; }
    const at = buttons.indexOf(document.activeElement);
    buttons[(at + step + buttons.length) % buttons.length].focus();
  }
  function renderMoves() {
    const box = $("moves");
    box.replaceChildren();
    cancel();
    card = null;
    $("card-note").textContent = "";
    if (!state.legal.length) {
      box.textContent = state.over ? "" : state.seat === null ? "" : "Wait for your turn.";
      return;
    }
    const groups = new Map();  // group -> with -> [k]
    state.legal.forEach((move, k) => {
      const [, group, extra] = state.labels[k] || ["", "other", null];
      if (!groups.has(group)) groups.set(group, new Map());
      const inner = groups.get(group);
      const key = extra || "";
      if (!inner.has(key)) inner.set(key, []);
      inner.get(key).push(k);
    });
    const order = ["withdraw", "palace", "take"];
    const names = [...groups.keys()].sort((a, b) =>
      (order.includes(a) ? order.indexOf(a) : 9) - (order.includes(b) ? order.indexOf(b) : 9));
    for (const group of names) {
      const section = el("div", null, "group");
      section.dataset.group = group;
      if (!order.includes(group)) section.append(el("div", "Play " + group, "group-title " + group));
      else if (group === "take") section.append(el("div", "Take a card from the supply", "group-title"));
      else if (group === "palace") section.append(el("div", state.legal[0].startsWith("crown") ?
        "Place your crown palace (tap a city or pick one)" : "Place your palace (tap a city or pick one)", "group-title"));
      for (const [extra, ks] of groups.get(group)) {
        const row = el("div", null, "with");
        if (extra) row.append(el("span", "with " + extra + ":", "muted"));
        for (const k of ks) row.append(moveButton(k));
        section.append(row);
      }
      box.append(section);
    }
    markHinted();
  }
  function markHinted() {
    for (const node of document.querySelectorAll(".hinted")) node.classList.remove("hinted");
    if (!state || hinted === null || !state.legal.includes(hinted)) return;
    const k = state.legal.indexOf(hinted);
    const button = document.querySelector('#moves button[data-index="' + k + '"]');
    if (button) button.classList.add("hinted");
    if (/^(palace|crown) /.test(hinted)) {
      const city = hinted.split(" ")[1];
      const group = document.querySelector('#board g.city[data-id="' + city + '"]');
      if (group) group.classList.add("hinted");
    }
  }

  // ------------------------------------------------------------------ the page
  function render(frame) {
    if (frame.full) setBoard(frame.board);
    if (!board) { send({type: "state"}); return; }  // a part without the board: ask again
    if (!frame.full && state && frame.decision < state.decision) { send({type: "state"}); return; }
    if (!state || frame.decision !== state.decision) hinted = null;
    const was = state;
    state = frame;
    const fresh = [];  // the lines this page had not had: said aloud
    for (const step of frame.events) {
      if (!log.has(step.decision) && was) fresh.push(...step.lines);
      log.set(step.decision, step);
    }
    for (const number of [...log.keys()]) if (number > frame.decision) log.delete(number);  // an undo
    if (frame.full) send({type: "log"});  // the earlier visits, once per connection
    if (frame.over && frame.seat !== null) try { localStorage.removeItem(BASE); } catch (e) { /* */ }
    body.dataset.decision = String(frame.decision);
    const mine = frame.seat !== null && frame.turn === frame.seat && !frame.over;
    const wasMine = was && was.seat !== null && was.turn === was.seat && !was.over && was.legal.length > 0;
    body.dataset.turn = mine && frame.legal.length ? "yes" : "no";
    body.dataset.over = frame.over ? "yes" : "no";
    body.dataset.role = frame.seat === null ? "watch" : "play";
    document.title = (mine ? "(your turn) " : "") + "Taj Mahal";
    let status;
    if (frame.over) status = "The game is over";
    else if (mine) status = "Your turn, " + frame.players[frame.seat];
    else status = "Waiting for " + seatName(frame.turn);
    if (frame.seat === null) status = "Watching" + (frame.delayed ? " (one visit behind)" : "") + ": " + status;
    $("status").textContent = status;
    body.dataset.phase = frame.view.phase;
    showBoard(frame.shown);
    const newTurn = !state || frame.decision !== Number(body.dataset.shownDecision);
    body.dataset.shownDecision = String(frame.decision);
    $("actions").hidden = frame.seat === null || frame.over;
    if (newTurn) $("actions").scrollTop = 0;
    renderPrompt(frame);
    const hand = frame.view.hand || [];
    $("hand").replaceChildren(...hand.map((text, k) => {
      const button = el("button", cardName(text), "card " + text.split(":")[0]);
      button.dataset.card = text;
      button.title = "key " + (k + 1) + (text.startsWith("special:") ? ": " + specialHelp(text) : "");
      button.addEventListener("click", () => cardPicked(text, button));
      return button;
    }));
    if (!hand.length) $("hand").textContent = "no cards";
    renderMoves();
    $("hint").hidden = !(frame.hints && mine && frame.legal.length);
    $("undo").hidden = !frame.undo;
    renderScores(frame);
    renderTable(frame.table);
    renderLog();
    renderSince();
    renderResult(frame);
    autoZoom(frame);
    padForBar();
    const turnNow = mine && frame.legal.length > 0;
    announce(fresh, turnNow && !wasMine);
    if (turnNow && !wasMine && was) yourTurn();
    if (frame.hints && mine && frame.legal.length > 1 && autoHint()) askHint();
  }
  // ------------------------------------------------------------------ the log, by visit
  const openVisits = new Set();  // the visits a person opened (the latest is open anyway)
  function renderLog() {
    const box = $("events");
    const steps = [...log.values()].sort((a, b) => a.decision - b.decision);
    const visits = [];
    for (const step of steps) for (const line of step.lines) {
      const start = /^Visit (\d+): /.exec(line);
      if (start || !visits.length) visits.push({title: start ? line.split(" (")[0] : "Earlier", number: start ? start[1] : "0", items: []});
      visits[visits.length - 1].items.push([step.decision, line]);
    }
    const last = visits.length - 1;
    box.replaceChildren(...visits.map((visit, k) => {
      const part = el("details", null, "visit");
      part.dataset.visit = visit.number;
      part.open = k === last || openVisits.has(visit.number);
      part.addEventListener("toggle", () => {
        if (part.open) openVisits.add(visit.number); else openVisits.delete(visit.number);
      });
      part.append(el("summary", visit.title + " (" + visit.items.length + (visit.items.length === 1 ? " line)" : " lines)")));
      const list = el("ol");
      for (const [decision, line] of visit.items) {
        const item = el("li");
        item.append(withRules(line));
        item.dataset.decision = String(decision);
        list.append(item);
      }
      part.append(list);
      return part;
    }));
    box.scrollTop = box.scrollHeight;
  }
  // ------------------------------------------------------------------ said, heard, shown
  function announce(lines, turn) {  // the live region: what happened, and whose turn it is
    const said = lines.slice(-4).map(line => line.replace(/ \([A-Z]\d{1,2}(?:[-\u2013,][^)]*)?\)$/, ""));
    if (turn) said.push("Your turn.");
    if (said.length) $("announce").textContent = said.join(". ");
  }
  function yourTurn() {  // a sound, a notification, a vibration: each only if asked for
    if ($("sound").checked) beep();
    if ($("notify").checked && document.hidden) {
      if (window.Notification && Notification.permission === "granted")
        new Notification("Taj Mahal: your turn", {body: sinceLines().slice(-2).join("; "), tag: "tajmahal-" + token});
      if (navigator.vibrate) navigator.vibrate([120, 60, 120]);
    }
  }
  let audio = null;
  function beep() {
    try {
      audio = audio || new (window.AudioContext || window.webkitAudioContext)();
      const tone = audio.createOscillator(), gain = audio.createGain();
      tone.frequency.value = 660;
      gain.gain.setValueAtTime(0.12, audio.currentTime);
      gain.gain.exponentialRampToValueAtTime(0.001, audio.currentTime + 0.35);
      tone.connect(gain).connect(audio.destination);
      tone.start();
      tone.stop(audio.currentTime + 0.35);
      body.dataset.beeps = String(Number(body.dataset.beeps || 0) + 1);
    } catch (e) { /* no sound here */ }
  }
  function autoZoom(frame) {  // a palace or crown choice on a small board: the province, close
    const cities = frame.legal.filter(m => /^(palace|crown) /.test(m)).map(m => board.cities[m.split(" ")[1]]).filter(Boolean);
    const svg = $("board").querySelector("svg");
    if (!cities.length || !svg) {
      if (autoZoomed) { setView(autoZoomed); autoZoomed = null; }
      return;
    }
    if (autoZoomed || svg.getBoundingClientRect().width > 700) return;
    const xs = cities.map(c => c[0]), ys = cities.map(c => c[1]);
    const pad = 40;
    const w = Math.max(...xs) - Math.min(...xs) + 2 * pad, h = Math.max(...ys) - Math.min(...ys) + 2 * pad;
    const width = Math.max(w, h * whole[2] / whole[3]);
    if (width >= whole[2] * 0.9) return;
    autoZoomed = view.slice();
    const cx = (Math.max(...xs) + Math.min(...xs)) / 2, cy = (Math.max(...ys) + Math.min(...ys)) / 2;
    const height = width * whole[3] / whole[2];
    setView([cx - width / 2, cy - height / 2, width, height]);
  }
  function autoHint() {  // hints come by themselves against bots (people can switch it off)
    return state.humans.length === 1 && localStorage.getItem("tajmahal.autohint") !== "off";
  }
  function askHint() {
    if (!state || !myTurn()) return;
    $("hint-text").textContent = "Thinking of a hint...";
    send({type: "hint", decision: state.decision + 1});
  }
  function cardName(text) {  // the library's name of a card (tajmahal.names), sent with the board
    return (board && board.card_names && board.card_names[text]) || text;
  }
  function symbolName(symbol) {
    return (board && board.symbol_names && board.symbol_names[symbol]) || words(symbol);
  }
  function specialHelp(text) {
    const which = text.split(":")[1];
    return {
      elephant: "counts as one elephant of any color, with a colored card (P7)",
      grand_mogul: "counts as one grand mogul of any color, with a colored card (P7)",
      points: "played with a colored card: +2 points at once (P6)",
      color_change: "lets your colored card be of any color (P4)",
    }[which] || "";
  }
  function renderPrompt(frame) {
    const prompt = $("prompt");
    const line = $("withdraw-line");
    line.replaceChildren();
    if (frame.seat === null) { prompt.textContent = ""; return; }
    if (frame.over) prompt.textContent = "The game is over.";
    else if (frame.turn !== frame.seat) prompt.textContent = "Waiting for " + seatName(frame.turn) + ".";
    else if (frame.legal.some(m => m.startsWith("palace "))) prompt.textContent = "Choose a city for your palace: tap a highlighted (blue-ringed) city.";
    else if (frame.legal.some(m => m.startsWith("crown "))) prompt.textContent = "Choose a city for your crown palace.";
    else if (frame.legal.some(m => m.startsWith("take "))) prompt.textContent = "Take a card from the supply.";
    else prompt.textContent = "Play a colored card (with a white or special card if you like), or withdraw.";
    const gain = frame.table && frame.table.withdrawals ? frame.table.withdrawals[frame.seat] : null;
    if (gain && frame.turn === frame.seat && frame.legal.includes("withdraw")) {
      line.append(el("strong", "Withdrawing now "));
      line.append(withRules(gain.text));
    }
  }
  function renderScores(frame) {
    clocksAt = performance.now();
    const leader = Math.max(...frame.view.scores);
    $("scores").replaceChildren(...frame.players.map((_, seat) => {
      const row = el("tr");
      row.dataset.seat = String(seat);
      if (seat === frame.turn && !frame.over) row.className = "turn";
      const swatch = el("td", null, "swatch");  // the seat's palace colour, named
      const chip = el("span", null, "swatch-chip");
      chip.setAttribute("aria-hidden", "true");
      if (board) chip.style.background = board.colors[seat % board.colors.length];
      swatch.append(chip, colorName(seat));
      row.append(swatch);
      row.append(el("td", seatName(seat) + (seat === frame.seat ? " (you)" : ""), "name"));
      const points = frame.view.scores[seat];
      row.append(el("td", String(points) + (points < leader ? " (" + (points - leader) + ")" : "")));
      row.append(el("td", frame.view.hand_sizes[seat] + " cards", "muted"));
      const clock = frame.clocks ? frame.clocks[seat] : null;
      if (clock) {  // the server's count; the page only counts down between its messages
        const cell = el("td", clockText(clock.left), "clock" + (clock.running ? " running" : ""));
        cell.dataset.left = String(clock.left);
        cell.setAttribute("aria-label", (seat === frame.seat ? "your" : "their") + " time left: " + clockText(clock.left));
        row.append(cell);
      }
      return row;
    }));
  }
  let clocksAt = performance.now();  // when the latest clocks came
  function clockText(seconds) {
    const s = Math.max(0, Math.ceil(seconds));
    const h = Math.floor(s / 3600), m = Math.floor(s / 60) % 60, r = s % 60;
    return (h ? h + ":" + String(m).padStart(2, "0") : String(m)) + ":" + String(r).padStart(2, "0");
  }
  setInterval(() => {
    const gone = (performance.now() - clocksAt) / 1000;
    for (const cell of document.querySelectorAll("#scores td.clock.running")) {
      const left = Number(cell.dataset.left) - gone;
      cell.textContent = clockText(left);
      cell.classList.toggle("low", left <= 10);
    }
  }, 500);
  function renderTable(table) {
    const panel = $("table-panel");
    panel.replaceChildren();
    if (!table) return;
    panel.append(el("h2", "The table: visit " + table.visit + ", " + table.province_name));
    const leads = {};
    for (const prize of table.prizes) leads[prize.symbol] = prize;
    const prizes = el("div", null, "prizes");
    for (const prize of table.prizes) {
      const item = el("span", null, "prize" + (prize.available ? "" : " gone"));
      let who = prize.leaders.length ? prize.leaders.map(shortName).join(" and ") +
        (prize.leaders.length > 1 ? " tie " : " leads ") + prize.best : "nobody yet";
      if (!prize.available) who = "already taken";
      item.textContent = symbolName(prize.symbol) + " (" + prize.prize.replace(/^the /, "") + "): " + who;
      item.title = prize.available ? (prize.leaders.length > 1 ? "a tie wins nothing (W4)" : "a strict majority wins it on withdrawing (W2)") : "won this visit already (W3)";
      prizes.append(item);
    }
    panel.append(prizes);
    for (const row of table.seats) {
      const seat = row.seat;
      const box = el("div", null, "seat-box" + (seat === table.current_player ? " turn" : ""));
      box.dataset.seat = String(seat);
      const head = el("div", null, "seat-head");
      head.append(el("strong", seatName(seat) + (seat === state.seat ? " (you)" : "")));
      head.append(el("span", " " + row.score + (row.score === 1 ? " point, " : " points, ") +
                     row.hand_size + (row.hand_size === 1 ? " card" : " cards") + " in hand", "muted"));
      box.append(head);
      const cards = el("div", null, "seat-cards");
      if (row.withdrawn) cards.append(el("em", "withdrawn this visit"));
      else if (!row.card_names.length) cards.append(el("span", "no cards on the table yet", "muted"));
      else {
        for (const name of row.card_names) {
          const color = name.split(" ")[0];
          cards.append(el("span", name, "chip " + (name.endsWith(" card") ? "special" : color)));
        }
        const totals = el("span", null, "totals");
        for (const symbol of SYMBOLS) {
          const count = row.totals[symbol];
          if (!count) continue;
          const prize = leads[symbol];
          const mark = prize && prize.leaders.includes(seat) ? (prize.leaders.length > 1 ? " =" : " \u2605") : "";
          totals.append(el("span", symbolName(symbol) + " " + count + mark, mark.includes("\u2605") ? "lead" : ""));
        }
        cards.append(totals);
      }
      box.append(cards);
      const gain = table.withdrawals[seat];
      if (gain && !row.withdrawn && (row.card_names.length || seat === state.seat)) {
        const line = el("div", null, "withdraw" + (seat === state.seat ? " mine" : ""));
        line.append(el("span", seat === state.seat ? "If you withdraw now: " : "Withdrawing now: ", "muted"));
        line.append(withRules(gain.text));
        box.append(line);
      }
      const owned = table.holdings[seat];
      const has = el("div", null, "owned");
      has.textContent = owned && owned.text.length ? "Owns: " + owned.text.join(", ") : "Owns nothing yet";
      box.append(has);
      panel.append(box);
    }
  }
  function renderResult(frame) {
    const box = $("result");
    box.hidden = !frame.over;
    if (!frame.over || !frame.result) return;
    box.replaceChildren();
    const best = frame.result.winners.map(seat => frame.players[seat]).join(" and ");
    box.append(el("h2", "The game is over: " + best + (frame.result.winners.length > 1 ? " win" : " wins")));
    const list = el("ol");
    list.id = "final-scores";
    const order = frame.players.map((_, seat) => seat)
      .sort((a, b) => frame.result.scores[b] - frame.result.scores[a] || a - b);
    const breakdown = frame.result.breakdown;
    for (const seat of order) {
      const item = el("li");
      item.dataset.seat = String(seat);
      item.dataset.score = String(frame.result.scores[seat]);
      item.append(el("strong", seatName(seat) + ": " + frame.result.scores[seat]));
      if (breakdown) {  // the parts that scored, in the library's words (tajmahal.names)
        const parts = (breakdown.parts || [])[seat];
        item.append(el("span", parts && parts !== "0" ? " = " + parts : "", "muted"));
      }
      list.append(item);
    }
    box.append(list);
    const links = el("div", null, "links");
    for (const [text, href, id] of [["Analysis of your game", "/analysis/" + token, "link-analysis"],
                                    ["Replay the game", "/replay/" + token, "link-replay"],
                                    ["Download the record", "/record/" + token, "link-download"],
                                    ["New game", "/", "link-new"]]) {
      const link = el("a", text);
      link.href = href;
      link.id = id;
      if (id === "link-download") link.setAttribute("download", "");
      links.append(link);
    }
    box.append(links);
    if (frame.seat !== null) box.append(rematchPart());
    if (frame.result.faults && frame.result.faults.length)
      box.append(el("div", "Faults: " + frame.result.faults.join("; "), "muted"));
  }
  // ------------------------------------------------------------------ rematch
  let rematch = null;      // the server's rematch message: this person's next seat
  let rematchAsked = false;
  function rematchPart() {
    const part = el("div", null, "rematch");
    part.id = "rematch";
    if (!rematchAsked) { rematchAsked = true; send({type: "rematch", create: false}); }
    if (rematch && rematch.link) {
      part.append(el("strong", "The rematch: "), "your seat (seat " + (rematch.seat + 1) + ") is ");
      const link = el("a", location.origin + rematch.link, "rematch-link");
      link.href = rematch.link;
      part.append(link);
      return part;
    }
    const button = el("button", "Rematch", "primary");
    button.id = "rematch-button";
    button.title = "the next game: the same seats, the order rotated, a new deal";
    button.addEventListener("click", () => {
      button.disabled = true;
      send({type: "rematch", create: true});
    });
    part.append(button, " ", el("span", "the same seats, each one place on, a new deal", "muted"));
    return part;
  }
  function keepRematch(message) {  // the lobby's "Your games" learns the new link
    const key = "tajmahal.games";
    let games = [];
    try { games = JSON.parse(store.get(key) || "[]"); } catch (e) { games = []; }
    if (!Array.isArray(games)) games = [];
    const seat = {seat: message.seat, name: message.players[message.seat], human: true, link: message.link};
    const old = games.find(g => g && g.id === message.game);
    if (old) {
      if (!(old.seats || []).some(s => s && s.link === message.link)) old.seats = [...(old.seats || []), seat];
    } else {
      games.unshift({id: message.game, created: Date.now(), players: message.players,
                     seats: [seat], spectator: message.spectator});
    }
    store.set(key, JSON.stringify(games.slice(0, 50)));
  }
  function received(event) {
    let message;
    try { message = JSON.parse(event.data); } catch (e) { return; }
    if (message.type === "state") render(message);
    else if (message.type === "rematch" && state && state.over) {
      if (message.link && /^\/play\/[\w-]+$/.test(message.link) && typeof message.game === "string") {
        rematch = message;
        keepRematch(message);
      } else if (message.ready) send({type: "rematch", create: false});  // someone made one
      renderResult(state);
    }
    else if (message.type === "log" && state && Array.isArray(message.events)) {
      for (const step of message.events)
        if (step && typeof step.decision === "number" && step.decision <= state.decision && Array.isArray(step.lines))
          log.set(step.decision, step);
      renderLog();
      renderSince();
    }
    else if (message.type === "error") {
      $("error").replaceChildren(withRules(message.message));
      if (message.request === "hint") $("hint-text").textContent = "";
      if (message.request === "rematch" && $("rematch")) {  // the bar is gone at the end
        $("rematch").append(el("div", message.message, "error"));
        if ($("rematch-button")) $("rematch-button").disabled = false;
      }
      if (state) for (const button of document.querySelectorAll("#moves button, #hand button")) button.disabled = false;
    } else if (message.type === "hint") {
      hinted = message.move;
      const text = $("hint-text");
      text.replaceChildren(el("strong", "Hint: " + (message.label || message.move) + ". "));
      for (const reason of message.reasons || []) { text.append(withRules(reason)); text.append(" "); }
      markHinted();
    }
  }
  function setConnected(yes, text) {
    body.dataset.connected = yes ? "yes" : "no";
    $("connection").textContent = text;
    $("connection").className = yes ? "" : "lost";
    for (const button of document.querySelectorAll("#moves button, #hand button, #hint, #undo, #confirm-yes"))
      button.disabled = !yes;
  }
  function connect() {
    const scheme = location.protocol === "https:" ? "wss://" : "ws://";
    socket = new WebSocket(scheme + location.host + "/ws/" + token);
    socket.addEventListener("open", () => {
      retry = 500;
      setConnected(true, "connected");
    });
    socket.addEventListener("message", received);
    socket.addEventListener("close", event => {
      if (event.code === 4404) { setConnected(false, "no game has this link"); return; }
      setConnected(false, "connection lost: moves are off until it is back (reconnecting...)");
      setTimeout(connect, retry);
      retry = Math.min(retry * 2, 8000);
    });
  }
  $("zoom-in").addEventListener("click", () => zoom(1.5));
  $("zoom-out").addEventListener("click", () => zoom(1 / 1.5));
  $("zoom-fit").addEventListener("click", () => whole && setView(whole.slice()));
  $("confirm-yes").addEventListener("click", () => { if (selected !== null) play(selected); });
  $("confirm-no").addEventListener("click", cancel);
  $("hint").addEventListener("click", askHint);
  $("undo").addEventListener("click", () => send({type: "undo", decision: state.decision + 1}));
  $("keys-button").addEventListener("click", () => $("keys").showModal());
  $("bar-toggle").addEventListener("click", () => {  // the phone's move bar: folded, or open
    const folded = !body.classList.contains("bar-folded");
    body.classList.toggle("bar-folded", folded);
    $("bar-toggle").textContent = folded ? "show moves" : "hide moves";
    $("bar-toggle").setAttribute("aria-expanded", folded ? "false" : "true");
    padForBar();
  });
  function padForBar() {  // the page scrolls past the fixed bar: nothing stays under it
    const bar = $("actions");
    const fixed = getComputedStyle(bar).position === "fixed" && !bar.hidden;
    document.querySelector("main").style.paddingBottom = fixed ? (bar.offsetHeight + 12) + "px" : "";
  }
  if (window.ResizeObserver) new ResizeObserver(padForBar).observe($("actions"));
  window.addEventListener("resize", padForBar);
  for (const id of ["sound", "notify"]) {  // opt-in, remembered by this browser
    $(id).checked = store.get("tajmahal." + id) === "on";
    $(id).addEventListener("change", () => {
      store.set("tajmahal." + id, $(id).checked ? "on" : "off");
      if (id === "notify" && $(id).checked && window.Notification && Notification.permission === "default")
        Notification.requestPermission();
      if (id === "sound" && $(id).checked) beep();
    });
  }
  window.addEventListener("resize", sizeHits);
  document.addEventListener("keydown", event => {
    if (event.target.closest && event.target.closest("input, select, textarea")) return;
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    const key = event.key;
    if (key === "?") { $("keys").open ? $("keys").close() : $("keys").showModal(); }
    else if (key === "Escape") cancel();
    else if (key === "Enter" && selected !== null) { event.preventDefault(); play(selected); }
    else if (key === "Enter" && card !== null && !event.target.closest("button, a, summary")) {
      const uses = cardUses(card);  // the selected card's only move
      if (uses.length === 1) { event.preventDefault(); choose(uses[0]); }
    }
    else if (key === "m") focusMove(0, true);
    else if ((key === "ArrowDown" || key === "ArrowUp") && event.target.closest && event.target.closest("#moves")) {
      event.preventDefault();
      focusMove(key === "ArrowDown" ? 1 : -1, false);
    }
    else if (key === "h" && !$("hint").hidden) askHint();
    else if (key === "u" && !$("undo").hidden) send({type: "undo", decision: state.decision + 1});
    else if (key === "w" && state && state.legal.includes("withdraw")) choose(state.legal.indexOf("withdraw"));
    else if (key === "+" || key === "=") zoom(1.5);
    else if (key === "-") zoom(1 / 1.5);
    else if (key === "0" && whole) setView(whole.slice());
    else if (/^[1-9]$/.test(key)) {
      const button = document.querySelectorAll("#hand button.card")[Number(key) - 1];
      if (button) button.click();
      if (button && button.classList.contains("selected")) focusMove(0, true);  // its moves next
    } else return;
  });
  if (role === "play" || role === "watch") connect();
})();
