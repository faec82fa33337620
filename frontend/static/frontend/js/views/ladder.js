// The ladder as a picture: ten rungs, your position and the other players' markers.
import { format, gettext } from "../i18n.js";
import { unchanged } from "./drawn.js";
import { seatName } from "./seats.js";

// Where a player's marker stands: their rung, one higher once they have laid its contract
// down this deal (the climb shows when it happens, not at the next deal).
export function standsOn(player) {
  return Math.min(10, player.rung + (player.laid_down ? 1 : 0));
}

// Everything the ladder and its legend show (players[i] is seat i's): drawn again only
// when it changes (a move rarely moves a marker), so the page is not laid out anew for the
// same ten rungs.
function drawnFrom(view, contracts) {
  const me = view.players[view.you];
  return JSON.stringify([contracts, view.you, view.spectator, me?.climbed,
    view.players.map((p) => [standsOn(p), seatName(view, p.seat)])]);
}

// Returns whether it drew the ladder again.
export function renderLadder(root, view, contracts, legend = null) {
  if (unchanged(root, drawnFrom(view, contracts))) return false;
  const list = document.createElement("ol");
  list.className = "ladder";
  list.reversed = true;
  for (let rung = 10; rung >= 1; rung--) {
    const li = document.createElement("li");
    li.className = "rung";
    const label = document.createElement("span");
    label.className = "rung-label";
    label.textContent = String(rung);
    li.append(label);
    const contract = document.createElement("span");
    contract.className = "rung-contract";
    contract.textContent = contracts[rung] || "";
    li.append(contract);
    const markers = document.createElement("span");
    markers.className = "markers";
    for (const p of view.players) {
      if (standsOn(p) !== rung) continue;
      const m = document.createElement("span");
      m.className = `marker seat${p.seat}` + (p.seat === view.you ? " me" : "");
      m.textContent = p.seat === view.you ? "" : String(p.seat);
      m.title = seatName(view, p.seat);
      markers.append(m);
    }
    li.append(markers);
    const me = view.players[view.you];
    if (me && rung === standsOn(me)) li.classList.add("current");
    if (me && rung <= me.climbed) li.classList.add("done");
    const who = view.players.filter((p) => standsOn(p) === rung).map((p) => seatName(view, p.seat));
    li.setAttribute("aria-label", format(gettext("Rung %(rung)s: %(contract)s"), { rung, contract: contracts[rung] || "" })
      + (who.length ? ` — ${who.join(", ")}` : ""));
    list.append(li);
  }
  root.replaceChildren(list);
  if (legend) renderLegend(legend, view);
  return true;
}

// What each marker stands for: you, and each computer player by name.
function renderLegend(root, view) {
  root.replaceChildren(...view.players.map((p) => {
    const li = document.createElement("li");
    const m = document.createElement("span");
    m.className = "marker" + (p.seat === view.you ? " me" : "");
    m.setAttribute("aria-hidden", "true");
    m.textContent = p.seat === view.you ? "" : String(p.seat);
    li.append(m, seatName(view, p.seat));
    return li;
  }));
}
