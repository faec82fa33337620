// The day's daily for a page that shows it (the daily's page, the home page's box), or null
// once `stateLine` says why there is none: the server has no daily yet (`box` is not
// data-available="1"), or it could not be read (`onError(error)` hears why too).
import * as api from "../api.js";
import { gettext } from "../i18n.js";

export async function dailyOrWhyNot(box, stateLine, onError = () => {}) {
  if (box.dataset.available !== "1") {
    stateLine.textContent = gettext("The daily deal is not open on this server yet. Practice games are.");
    return null;
  }
  try {
    return await api.daily();
  } catch (error) {
    stateLine.textContent = gettext("The daily deal could not be loaded.");
    onError(error);
    return null;
  }
}
