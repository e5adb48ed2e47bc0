// History and analysis, beyond Board Game Arena (docs/server.md, "History and analysis"):
// the board at an earlier index, a suggested move, the win-chance chart of a finished game,
// and a new game played on from a position of a finished one. Plain ES module, no library:
// every number comes from the server (the engine and its evaluator); nothing is computed here
// but where to draw it.

const SVG = "http://www.w3.org/2000/svg";
/** A seat's colour: the one the table gives it (table.js names it --seat-<n> on the page's root
 *  from table.css, a faction's colour in Tau Ceti), so that a line reads as the seat's pieces. */
const seatColour = (seat) => `var(--seat-${seat}, currentColor)`;

/** An error with the server's refusal: .status, .code ("forbidden", ...), .body. */
export class ApiError extends Error {
  constructor(status, body) {
    super((body && body.message) || `the server answered ${status}`);
    this.name = "ApiError";
    this.status = status;
    this.code = body && body.error;
    this.body = body;
  }
}

async function call(path, { token = null, method = "GET", body = undefined } = {}) {
  const headers = {};
  if (token) headers.Authorization = `Bearer ${token}`;
  if (body !== undefined) headers["Content-Type"] = "application/json";
  const response = await fetch(path, {
    method, headers, body: body === undefined ? undefined : JSON.stringify(body),
  });
  let data = null;
  try {
    data = await response.json();
  } catch {
    data = null;
  }
  if (!response.ok) throw new ApiError(response.status, data);
  return data;
}

const game = (gameId) => `/api/games/${encodeURIComponent(gameId)}`;

/** The GameView at `index` (0: before the first action) as the token's seat saw it then
 *  (a spectator's without a token); its legal_actions are empty. */
export function viewAt(gameId, token, index) {
  return call(`${game(gameId)}/views/${Number(index)}`, { token });
}

/** The normal bot's move for the seat to decide and its win chance:
 *  {index, notation, label, win_chance}. Refused (ApiError 403) unless the game was created with
 *  suggestions and it is the token's seat's decision. */
export function suggest(gameId, token) {
  return call(`${game(gameId)}/suggest`, { token, method: "POST" });
}

/** {id, suggestions, copied}: whether the game allows suggestions, and how many of its first
 *  actions were copied from the finished game it plays on from. */
export function analysisInfo(gameId) {
  return call(`${game(gameId)}/analysis`);
}

/** {id, game, seats, actions, points: [{index, chances: [p per seat]}]} of a finished game. */
export function winChances(gameId) {
  return call(`${game(gameId)}/win-chances`);
}

/** A new game from the position after the first `index` actions of the finished game `gameId`,
 *  the asker at `seat`, bots of `level` at the other seats. Answers POST /api/games' answer with
 *  the asker's `seat`, `token` and `join_link` added. */
export async function playOnFrom(gameId, index, seat = 0, level = "normal", { name = "", suggestions = false } = {}) {
  const created = await call(`${game(gameId)}/play-on`, {
    method: "POST", body: { index: Number(index), seat: Number(seat), level, name, suggestions },
  });
  const mine = created.seats.find((s) => s.token) || {};
  return { ...created, seat: mine.seat, token: mine.token, join_link: mine.join_link };
}

function el(name, attrs = {}, text = null) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attrs)) node.setAttribute(key, String(value));
  if (text !== null) node.textContent = text;
  return node;
}

const percent = (p) => `${Math.round(p * 100)}%`;

/** Draw the win-chance chart of the finished game `gameId` into `root`: a line per seat over
 *  the whole game (index on x, chance of winning on y), a legend, and a point per sampled index
 *  whose tooltip reads the chances; `onSelect(index)` (optional) is called when a point is
 *  clicked or activated with Enter (to show the board at that moment); `seatName(seat)` (optional)
 *  names the seats as the page does (the server's data has only who plays each). Resolves to the <svg>. */
export async function renderWinChart(root, gameId, { onSelect = null, seatName = null, width = 640, height = 280 } = {}) {
  const data = await winChances(gameId);
  const pad = { left: 44, right: 12, top: 26, bottom: 30 };
  const w = width - pad.left - pad.right;
  const h = height - pad.top - pad.bottom;
  const last = Math.max(1, data.actions);
  const x = (index) => pad.left + (index / last) * w;
  const y = (p) => pad.top + (1 - p) * h;
  const names = data.seats.map((s) => (seatName && seatName(s.seat)) || s.name || `Seat ${s.seat + 1}`);

  const svg = el("svg", {
    viewBox: `0 0 ${width} ${height}`, class: "win-chart", role: onSelect ? "group" : "img", style: "max-width: 100%; height: auto",
    "aria-label": `Chance of winning over the game, ${names.join(", ")}`,
  });
  svg.append(el("title", {}, "Chance of winning over the game (the bots' evaluator)"));
  const grid = el("g", { class: "win-chart-grid", stroke: "#bbb", "stroke-width": 0.5 });
  for (const p of [0, 0.25, 0.5, 0.75, 1]) {
    grid.append(el("line", { x1: pad.left, x2: pad.left + w, y1: y(p), y2: y(p) }));
    svg.append(el("text", {
      x: pad.left - 6, y: y(p) + 4, "text-anchor": "end", "font-size": 11, fill: "currentColor",
    }, percent(p)));
  }
  svg.append(grid);
  for (const [index, anchor] of [[0, "start"], [data.actions, "end"]]) {
    svg.append(el("text", {
      x: x(index), y: pad.top + h + 14, "text-anchor": anchor, "font-size": 11, fill: "currentColor",
    }, String(index)));
  }
  svg.append(el("text", {
    x: pad.left + w / 2, y: height - 6, "text-anchor": "middle", "font-size": 11, fill: "currentColor",
  }, `actions played (0 to ${data.actions})`));

  names.forEach((name, seat) => {
    const colour = seatColour(seat);
    const line = el("polyline", {
      class: `win-chart-line seat-${seat}`, fill: "none", stroke: colour, "stroke-width": 2,
      points: data.points.map((pt) => `${x(pt.index).toFixed(1)},${y(pt.chances[seat]).toFixed(1)}`).join(" "),
      "data-seat": seat,
    });
    line.append(el("title", {}, name));
    svg.append(line);
  });

  const dots = el("g", { class: "win-chart-points" });
  for (const pt of data.points) {
    const tip = `after action ${pt.index}: ` + names.map((n, s) => `${n} ${percent(pt.chances[s])}`).join(", ");
    pt.chances.forEach((p, seat) => {
      const dot = el("circle", {
        cx: x(pt.index).toFixed(1), cy: y(p).toFixed(1), r: 2.5, "data-index": pt.index, "data-seat": seat,
        fill: seatColour(seat),
      });
      dot.append(el("title", {}, tip));
      if (onSelect && seat === 0) {
        dot.setAttribute("tabindex", "0");
        dot.setAttribute("role", "button");
        dot.setAttribute("aria-label", `show the board ${tip}`);
        dot.addEventListener("keydown", (event) => {
          if (event.key === "Enter" || event.key === " ") onSelect(pt.index);
        });
      }
      if (onSelect) {
        dot.style.cursor = "pointer";
        dot.addEventListener("click", () => onSelect(pt.index));
      }
      dots.append(dot);
    });
  }
  svg.append(dots);

  const legend = el("g", { class: "win-chart-legend", "font-size": 12 });
  let at = pad.left + 8;
  names.forEach((name, seat) => {
    const colour = seatColour(seat);
    legend.append(el("rect", { x: at, y: 4, width: 10, height: 10, fill: colour }));
    legend.append(el("text", { x: at + 14, y: 13, fill: "currentColor" }, name));
    at += 24 + name.length * 7;
  });
  svg.append(legend);

  root.replaceChildren(svg);
  return svg;
}
