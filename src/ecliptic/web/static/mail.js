// "Email me when it is my turn": for games played over days, a seat gives the server an address
// and is emailed when the game waits for it (and when it ends) while none of its pages is open.
// Offered only when the server sends email (its host configured SMTP: the GET says `offered`).
// The address goes to the server and comes back with the seat's own token only; no view, no
// WebSocket message and no other seat ever carries it. The email's link has no token: this
// browser, which keeps the seat's token, finds it on the game page. A game that is over takes
// no address (the GET says `over`; a PUT is refused with game_over): no form is offered there.

import { api, ApiError, el, fill } from "/static/api.js";

const CHECK_MS = 1000;   // how often the page's seat is looked at (a hot-seat page changes seats)

// Shows the control in `box` for the seat `current()` names ({seat, token}; seat null: a
// spectator, who is offered nothing), fetched again whenever that seat changes.
export function mountMail(box, gameId, current) {
  let shownFor;          // the seat the box was drawn for (undefined: none yet)
  const url = (seat) => `/api/games/${encodeURIComponent(gameId)}/seats/${seat}/mail`;

  async function look() {
    const { seat, token, over } = current();
    if (over) { box.hidden = true; shownFor = seat; return; }   // (when the page tells: no fetch)
    if (seat === shownFor) return;
    shownFor = seat;
    if (seat === null || seat === undefined || !token) { box.hidden = true; return; }
    try {
      draw(await api(url(seat), { token }), token, "");
    } catch { box.hidden = true; /* no setting to show: the page plays on without it */ }
  }

  // `shown`: the setting on the page when the person asked; a request that fails leaves it
  // shown, with the reason (a failed "Stop emailing me" must not look like a stop).
  async function change(shown, token, address) {
    const seat = shown.seat;
    try {
      const setting = address === null
        ? await api(url(seat), { method: "DELETE", token })
        : await api(url(seat), { method: "PUT", token, body: { address } });
      draw(setting, token, "");
    } catch (e) {
      if (e instanceof ApiError && e.body && e.body.error === "game_over") { box.hidden = true; return; }
      const said = e instanceof ApiError && e.body && e.body.message ? e.body.message : e.message;
      draw(shown, token, address === null ? said : friendly(said), address || "");
    }
  }

  function draw(setting, token, error, typed = "") {
    if (!setting.offered || (setting.over && !setting.address)) { box.hidden = true; return; }
    if (setting.seat !== current().seat) return;   // the page changed seats meanwhile: look() draws it
    box.hidden = false;
    const title = el("h2", { id: "mail-title", text: "Email me when it is my turn" });
    const problem = el("p", { class: "error", role: "alert", text: error });
    if (setting.address) {
      fill(box, title,
        el("p", { id: "mail-status", text: `Emails go to ${setting.address} when the game waits for you and no page of yours is open, and when the game ends.` }),
        el("button", { type: "button", id: "mail-stop", onclick: () => change(setting, token, null) }, "Stop emailing me"),
        problem);
      return;
    }
    const input = el("input", { id: "mail-address", type: "email", maxlength: "254", autocomplete: "email",
      placeholder: "you@example.org", "aria-label": "your email address", value: typed || "" });
    const form = el("form", { id: "mail-form", class: "mail-form" }, input, el("button", { type: "submit" }, "Email me"));
    form.addEventListener("submit", (ev) => {
      ev.preventDefault();
      const address = input.value.trim();
      if (address) change(setting, token, address);
    });
    fill(box, title,
      el("p", { class: "muted", text: "No need to keep this page open: the server emails you once per turn, with a link to this game. Open it in this browser, which keeps your seat." }),
      form, problem);
  }

  // The server's refusal of an address, shortened for a person (the schema's words say where).
  function friendly(message) {
    return /not an email address|at most/.test(message) ? "That is not an email address (like you@example.org)." : message;
  }

  look();
  setInterval(look, CHECK_MS);
}
