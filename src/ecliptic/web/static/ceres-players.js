// The Ceres players' boards: Resources, Mining Probes left, VP by source, Tail tokens and the
// Asteroids each one has claimed.

import { h, textOf, stat } from "./svg.js";

/** A VP source key as the rulebook words it: nucleus_tables -> "Nucleus tables". */
function sourceName(key) {
  const words = String(key).replaceAll("_", " ");
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function drawCeresPlayers(ctx) {
  const v = ctx.view;
  return h("div", { class: "ecl-interfaces ceres-players" }, (v.players || []).map((p) => {
    const mine = p.seat === ctx.seat;
    const current = v.current_player === p.seat;
    // Who plays the seat, beside the name the log gives it (a person who kept "Player 1": once).
    const given = ctx.seatNames[p.seat];
    const person = given && String(given).toLowerCase() !== String(p.name || "").toLowerCase() ? given : null;
    const vp = p.vp || {};
    const sources = Object.keys(vp).filter((k) => k !== "total");
    return h("section", { ...ctx.t(`player:${p.seat}`, p.name || `Player ${p.seat + 1}`, `iface o-${p.seat}${mine ? " mine" : ""}${current ? " current" : ""}`) },
      h("header", null, h("h3", { class: "iface-name" }, h("span", { class: "swatch" }), h("b", null, p.name || `Player ${p.seat + 1}`),
        person ? h("span", { class: "person" }, ` · ${person}`) : null),
        mine ? h("span", { class: "badge" }, "you") : null,
        current ? h("span", { class: "badge turn" }, "to play") : null,
        v.first_player === p.seat ? h("span", { class: "badge first", title: "The first player this round" }, "first player") : null,
        p.passed ? h("span", { class: "badge passed" }, "passed") : null,
        (v.winners || []).includes(p.seat) ? h("span", { class: "badge winner" }, "winner") : null,
        h("span", { class: "t-score", title: sources.map((k) => `${sourceName(k)}: ${vp[k]} VP`).join(", ") }, `${vp.total ?? 0} VP`)),
      h("div", { class: "stats" },
        Object.keys(p.resources || {}).map((k) => stat(k, p.resources[k])),
        stat("Mining Probes", p.probes)),
      // VP by source, said as VP: "asteroids 11" beside five Asteroids read as a count of them.
      sources.length ? h("div", { class: "by-source" }, "VP from ", sources.map((k) => h("span", { class: "src" }, `${sourceName(k)} ${vp[k]}`))) : null,
      (p.tail_tokens || []).length ? h("div", { class: "t-row" }, "Tail tokens: ", p.tail_tokens.map((t) =>
        h("span", { class: "tail-token", title: textOf(ctx.names, t) }, t))) : null,
      (p.asteroids || []).length ? h("div", { class: "t-row" }, "Asteroids: ", p.asteroids.map((a) =>
        h("span", { ...ctx.t(`asteroid:${a}`, `Asteroid ${a}`, "asteroid-ref"), title: textOf(ctx.names, a) }, a))) : null);
  }));
}
