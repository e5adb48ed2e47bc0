// Every player's Interface side by side: the viewing seat's in full, the others' public facts.
// The hand, GP token ids and face-down Enlightenment cards exist in the view only for their
// owner, so an opponent's Interface cannot show them: it shows counts.

import { h, nameOf, textOf, cls, stat, commodityOfToken } from "./svg.js";

export function drawInterfaces(ctx) {
  const players = ctx.view.players || [];
  const order = players.map((p) => p.seat);
  if (ctx.seat !== null && order.includes(ctx.seat)) {
    order.splice(order.indexOf(ctx.seat), 1);
    order.unshift(ctx.seat);
  }
  return h("div", { class: "ecl-interfaces" }, order.map((seat) => drawInterface(ctx, players[seat])));
}

// A GP source key as the score sheet (score.js) words it; the board modules stand alone, so the
// few Tau Ceti keys are here too.
const SOURCE_NAMES = {
  tau: "TAU", cards: "Cards", orbitals: "Orbitals", cubes: "Resource cubes", gp_tokens: "GP tokens",
  assists: "Assists", virus_crystals: "Virus crystals", specialization_raised: "Specialization raised",
  home_crises: "Crises at home",
};
const sourceName = (key) => SOURCE_NAMES[key] || String(key).replaceAll("_", " ");

/** The final score once the game is over (view.final_scores), else the running score. */
function scoreOf(ctx, seat) {
  const final = (ctx.view.final_scores || [])[seat];
  if (final && typeof final.total === "number") {
    const by = {};
    for (const k in final) if (k !== "total") by[k] = final[k];
    return { seat, total: final.total, by_source: by, final: true };
  }
  const rows = ctx.present.score || [];
  return rows.find((r) => r.seat === seat) || null;
}

function drawInterface(ctx, p) {
  const v = ctx.view;
  const names = ctx.names;
  const mine = p.seat === ctx.seat;
  const current = v.current_player === p.seat;
  const given = ctx.seatNames[p.seat];
  const person = given && String(given).toLowerCase() !== String(p.faction).toLowerCase() ? given : null;
  const score = scoreOf(ctx, p.seat);
  const left = p.markers_left;   // the engine's count (the observation says it)
  // (the faction's name is the Interface's heading, an h3 under the TCX's level: its h4s are under it)
  const head = h("header", null,
    h("h3", { class: "iface-name" },
      h("span", { class: "swatch" }),
      h("b", { title: textOf(names, p.faction) }, p.faction),
      " ", h("span", { class: "character", title: textOf(names, p.character) }, p.character),
      person ? h("span", { class: "person" }, ` · ${person}`) : null),
    mine ? h("span", { class: "badge" }, "you") : null,
    current ? h("span", { class: "badge turn" }, "to play") : null,
    v.first_player === p.seat ? h("span", { class: "badge first", title: "The first player this round: their Alien card stands in the card stand" }, "first player") : null,
    p.passed ? h("span", { class: "badge passed" }, "passed") : null,
    (v.winners || []).includes(p.seat) ? h("span", { class: "badge winner" }, "winner") : null,
    score ? h("span", { class: "t-score", title: scoreTitle(score) }, `${score.total} GP${score.final ? " final" : ""}`) : null);
  const stats = h("div", { class: "stats" },
    stat("TAU", p.tau),
    stat("Energy", p.energy),
    stat("Materials", p.materials),
    typeof p.recruit_cost === "number" ? stat("Recruit", `${p.recruit_cost}T`) : null,
    stat("Action markers", left, { title: `${p.markers_used || 0} used, ${p.markers_lost || 0} lost` }),
    stat("Hand", p.hand_size),
    stat("GP tokens", `${p.gp_tokens} (${p.gp_token_points} GP)`),
    stat("Orbitals on the home planet", p.orbitals_home),
    stat("At", nameOf(names, p.position)),
    p.diplomacy ? h("span", { class: "stat diplomacy", title: "Takes two Specialist cards when recruiting (instead of 1 Specialist card and 1 Crisis card)" },
      h("b", null, "Diplomacy card")) : null,
    p.cargo_cube ? stat("Cargo", "a Resource cube") : null,
    p.free_upgrades ? stat("Free upgrades", p.free_upgrades) : null,
    played(ctx, p),
    p.battle_sector ? stat("Battle token", battleToken(ctx, p)) : null,
    p.claim ? stat("Claim token", claimToken(ctx, p.claim)) : null);
  const attrs = ctx.t(`player:${p.seat}`, `${p.faction} Interface`, `iface f-${cls(p.faction)}${mine ? " mine" : ""}${current ? " current" : ""}`);
  if (!attrs["aria-label"]) attrs["aria-label"] = `${p.faction} Interface`;
  return h("section", attrs,
  head, stats, skills(ctx, p), systems(ctx, p), knowledge(ctx, p, mine),
  holdings(ctx, p), missions(ctx, p), mine ? secrets(ctx, p) : shownHand(ctx, p), choosing(ctx, p),
  score ? scoreLine(score) : null);
}

/** Where the Battle token lies and whom it attacks (``battle_defender``: the Defender). */
function battleToken(ctx, p) {
  const players = ctx.view.players || [];
  const d = p.battle_defender;
  const against = d !== null && d !== undefined ? ` against ${players[d] ? players[d].faction : `Seat ${d + 1}`}` : "";
  return `${nameOf(ctx.names, p.battle_sector)}${against}`;
}

/** A Claim token lies on an Exploration point (``claim`` is the point's id): the point and its sector. */
function claimToken(ctx, point) {
  const pt = (ctx.view.points || {})[point];
  return `Exploration point ${point}${pt ? ` in ${nameOf(ctx.names, pt.sector)}` : ""}`;
}

/** Cards played face down in the Enlightenment phase: their number is public. The view keeps
 *  this round's counts (and the owner's cards) after the phase, when the Active deck has been
 *  revealed: they are no longer face down then, only played this round. */
function played(ctx, p) {
  const e = ctx.view.enlightenment;
  const n = e && e.played ? e.played[String(p.seat)] : 0;
  if (!n) return null;
  return stat(ctx.view.phase === "enlightenment" ? "Played face down" : "Played in the Enlightenment phase", n,
    { class: "stat enlightenment-played" });
}

function scoreTitle(score) {
  const by = score.by_source || {};
  return Object.keys(by).map((k) => `${sourceName(k)}: ${by[k]}`).join(", ") || "no GP yet";
}

function scoreLine(score) {
  const by = score.by_source || {};
  const keys = Object.keys(by).filter((k) => by[k]);
  if (!keys.length) return null;
  return h("div", { class: "by-source" }, score.final ? "Final GP: " : "GP so far: ",
    keys.map((k) => h("span", { class: "src" }, `${sourceName(k)} ${by[k]}`)));
}

/** Skill dice with the face-up Specialists whose bonus they include. */
function skills(ctx, p) {
  const names = ctx.names;
  const sk = p.skills || {};
  return h("div", { class: "skills" },
    h("h4", null, "Skills (dice)"),
    h("div", { class: "t-row" }, Object.keys(sk).map((k) => h("span", { class: `skill sk-${cls(k)}`, title: `${k}: ${sk[k]} dice` }, h("b", null, k.slice(0, 3)), ` ${sk[k]}`))),
    (p.face_up || []).length ? h("div", { class: "t-row face-up" }, "Specialists: ",
      p.face_up.map((c) => card(ctx, c))) : null,
    p.exotic_tech ? exoticTech(ctx, p) : null);
}

/** The Exotic Tech acquired: a one-time card once used is discarded (``exotic_spent``; it stays
 *  the player's Exotic Tech, no other can be acquired); the free re-roll is once per round
 *  (``exotic_reroll_round`` is the round it was last used in). */
function exoticTech(ctx, p) {
  const notes = [p.exotic_spent ? "one-time use: used and discarded" : null,
    p.exotic_reroll_round && p.exotic_reroll_round === ctx.view.round ? "free re-roll used this round" : null].filter(Boolean);
  return h("div", { class: "t-row exotic" }, "Exotic Tech: ", card(ctx, p.exotic_tech, p.exotic_spent ? "spent" : ""),
    notes.length ? h("small", null, ` ${notes.join("; ")}`) : null);
}

export function card(ctx, id, extra) {
  return h("span", { ...ctx.t(`card:${id}`, nameOf(ctx.names, id), `card${extra ? " " + extra : ""}`), title: textOf(ctx.names, id) },
    nameOf(ctx.names, id));
}

/** The six systems as a compact grid: power (after damage), the upgrade token, damage and virus. */
function systems(ctx, p) {
  const sys = p.systems || {};
  const b = ctx.view.battle;
  const shielded = new Set((b && b.shields && b.shields[String(p.seat)]) || []);
  const destroyed = new Set((b && b.destroyed_at_start && b.destroyed_at_start[String(p.seat)]) || []);
  return h("div", { class: "systems", role: "group", "aria-label": `${p.faction} systems` },
    Object.keys(sys).map((name) => {
      const x = sys[name];
      const guard = shielded.has(name) ? ", shielded in this battle" : destroyed.has(name) ? ", destroyed at the battle's start" : "";
      const effective = x.effective !== undefined ? x.effective : x.power;
      // "To destroy a system, you must cause damage equal to the system's power/capacity."
      const gone = x.power > 0 && x.damage >= x.power;
      const label = `${p.faction} ${name}: power ${effective}${effective !== x.power ? ` (${x.power} without its damage and virus crystals)` : ""}`
        + `${x.token ? `, upgraded with ${nameOf(ctx.names, x.token)}` : ""}${x.damage ? `, ${x.damage} damage` : ""}`
        + `${x.virus ? `, ${x.virus} virus ${x.virus === 1 ? "crystal" : "crystals"}` : ""}${gone ? ", destroyed" : ""}${guard}`;
      const klass = `system${x.damage ? " damaged" : ""}${x.virus ? " infected" : ""}${gone ? " destroyed" : ""}${shielded.has(name) ? " shielded" : ""}`;
      return h("div", { ...ctx.t(`system:${p.seat}:${name}`, label, klass), title: label },
        shielded.has(name) ? h("span", { class: "shield-mark", "aria-hidden": "true" }, "⛨") : null,
        h("span", { class: "sys-name" }, name),
        h("b", { class: "power" }, String(effective)),
        effective !== x.power ? h("s", { class: "was" }, String(x.power)) : null,
        x.token ? h("span", { class: "upgrade", title: textOf(ctx.names, x.token) }, "▲") : null,
        x.damage ? h("span", { class: "damage" }, "✖".repeat(Math.min(x.damage, 6))) : null,
        x.virus ? h("span", { class: "virus" }, "◆".repeat(Math.min(x.virus, 6))) : null);
    }));
}

function knowledge(ctx, p, mine) {
  const k = p.knowledge || {};
  const held = Object.keys(k).filter((t) => k[t]);
  if (!held.length) return null;
  return h("div", { class: "knowledge" }, "Knowledge: ",
    held.map((t) => h("span", {
      ...(mine ? ctx.t(`knowledge:${t}`, `${t} Knowledge`, `ktoken k-${cls(t)}`) : { class: `ktoken k-${cls(t)}` }),
      title: `${t} Knowledge token${ctx.names[t] && ctx.names[t].text ? ": " + ctx.names[t].text : ""}`,
    }, `${t} ×${k[t]}`)));
}

function holdings(ctx, p) {
  const list = p.holdings || [];
  if (!list.length) return null;
  return h("div", { class: "holdings" }, "Commodities: ",
    list.map((x) => {
      const commodity = commodityOfToken(ctx.names, x.token, knownCommodities(ctx));
      const label = commodity ? nameOf(ctx.names, commodity) : nameOf(ctx.names, x.token).replace(/ token$/, "");
      const attrs = commodity ? ctx.t(`commodity:${commodity}`, label, "commodity") : { class: "commodity" };
      if (x.engineered) attrs.class += " engineered";
      return h("span", { ...attrs, title: textOf(ctx.names, x.token) },
        `${label} ×${x.quantity}${x.engineered ? " (engineered)" : ""}`);
    }));
}

/** The commodity names the view spells out (the Supply, the planets' commodities, the prices). */
function knownCommodities(ctx) {
  const v = ctx.view;
  const set = new Set(v.supply || []);
  for (const k in v.planet_commodity || {}) set.add(v.planet_commodity[k]);
  for (const k in ctx.present.prices || {}) set.add(k);
  for (const k in ctx.names) if (/^[a-z]+$/.test(k)) set.add(k);
  return [...set];
}

function missions(ctx, p) {
  const list = p.missions || [];
  if (!list.length) return null;
  return h("div", { class: "missions" }, "IMs: ",
    list.map((m) => {
      const id = m.card;
      const notes = missionNotes(m).join(", ");
      return h("span", { ...ctx.t(`card:${id}`, nameOf(ctx.names, id), "card mission"), title: textOf(ctx.names, id) + (notes ? ` (${notes})` : "") },
        nameOf(ctx.names, id), notes ? h("small", null, ` ${notes}`) : null);
    }));
}

/** An IM card's state in the rulebook's words: the minimum route fixed when a pickup/deliver IM
 *  was taken, the cargo picked up, Advanced Rule 4's permission from the TCA or the
 *  Unauthorized Transport token on the card. */
function missionNotes(m) {
  return [
    m.route !== null && m.route !== undefined ? `minimum route ${m.route} ${m.route === 1 ? "sector" : "sectors"}` : null,
    m.picked_up ? "picked up" : null,
    m.unauthorized ? "Unauthorized Transport token on it" : null,
    m.permitted === false && !m.unauthorized ? "no permission from the TCA" : null,
  ].filter(Boolean);
}

/** What only the owner sees: the hand, the GP tokens' rewards, the face-down Enlightenment cards. */
function secrets(ctx, p) {
  const hand = p.hand || [];
  const gps = p.gp_token_ids || [];
  const played = (ctx.view.enlightenment && ctx.view.enlightenment.mine) || [];
  return h("div", { class: "secrets" },
    h("div", { class: "hand" }, h("h4", null, `Hand (${hand.length})`), hand.map((c) => card(ctx, c))),
    gps.length ? h("div", { class: "gps" }, "GP tokens: ", gps.map((g) =>
      h("span", { ...ctx.t(`gp:${g}`, nameOf(ctx.names, g), "gp"), title: textOf(ctx.names, g) }, nameOf(ctx.names, g)))) : null,
    played.length ? h("div", { class: "enlightened" }, ...(ctx.view.phase === "enlightenment"
      ? ["Played face down: ", played.map((c) => card(ctx, c, "face-down"))]
      : ["Played in the Enlightenment phase: ", played.map((c) => card(ctx, c))])) : null);
}

/** A hand the view shows to this seat although it is not its own (a battle's winner looks at
 *  the loser's hand before stealing). */
function shownHand(ctx, p) {
  if (!Array.isArray(p.hand)) return null;
  return h("div", { class: "hand shown" }, h("h4", null, `Hand, shown to you (${p.hand.length})`), p.hand.map((c) => card(ctx, c)));
}

/** The cards the deciding seat chooses from (in the decision's data only for that seat). */
function choosing(ctx, p) {
  const d = ctx.view.decision;
  if (!d || d.player !== p.seat || !d.data) return null;
  const cards = [];
  for (const key of ["cards", "drawn"]) {
    const list = d.data[key];
    if (Array.isArray(list)) for (const c of list) if (typeof c === "string") cards.push(c);
  }
  if (!cards.length) return null;
  return h("div", { class: "choosing" }, h("h4", null, "Choosing from"), cards.map((c) => card(ctx, c)));
}
